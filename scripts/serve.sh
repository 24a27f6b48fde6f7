#!/usr/bin/env bash
# Builds the calculator and serves it at http://127.0.0.1:${PORT:-8080}/
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
exec node scripts/serve.mjs
