"""An OpenAI-compatible server for the tests: xllamacpp embeds llama.cpp's own
llama-server (HTTP) in-process. Prints "READY <url>" on stdout once it listens,
then serves until SIGTERM or SIGINT (or until stdin closes, with --exit-on-eof,
so it never outlives the test that started it).

    OMP_WAIT_POLICY=passive target/llm/venv/bin/python tests/llm/serve_xll.py \
        --model target/llm/models/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf \
        --port 0 --alias test-model --ctx 4096 \
        --chat-template-file tests/llm/qwen_codeblock_tools_v2.jinja
"""

import argparse
import os
import signal
import sys
import threading

import xllamacpp as xlc

parser = argparse.ArgumentParser()
parser.add_argument("--model", required=True)
parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
parser.add_argument("--ctx", type=int, default=4096)
parser.add_argument("--alias", default="local-model")
parser.add_argument("--threads", type=int, default=2)
parser.add_argument("--chat-template-file")
parser.add_argument("--exit-on-eof", action="store_true", help="stop when stdin closes")
args = parser.parse_args()

params = xlc.CommonParams()
params.model.path = args.model
if isinstance(params.model_alias, set):
    params.model_alias = {args.alias}
else:
    params.model_alias = args.alias
params.hostnames = ["127.0.0.1"]
params.port = args.port
params.n_ctx = args.ctx
params.use_jinja = True
if args.chat_template_file:
    with open(args.chat_template_file, encoding="utf-8") as template:
        params.chat_template = template.read()
params.cpuparams.n_threads = args.threads
params.cpuparams_batch.n_threads = args.threads
if os.environ.get("XLL_VERBOSE"):
    params.verbosity = int(os.environ["XLL_VERBOSE"])

server = xlc.Server(params)
print("READY", server.listening_address, flush=True)

stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
signal.signal(signal.SIGINT, lambda *_: stop.set())
if args.exit_on_eof:
    def watch_stdin():
        sys.stdin.read()
        stop.set()
    threading.Thread(target=watch_stdin, daemon=True).start()
stop.wait()
del server
