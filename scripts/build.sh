#!/usr/bin/env bash
# Builds the wasm package into pkg/: cargo, then wasm-bindgen, then wasm-opt.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release --target wasm32-unknown-unknown --lib
wasm-bindgen --target web --no-typescript --out-dir pkg target/wasm32-unknown-unknown/release/isoperf.wasm
node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  pkg/isoperf_bg.wasm -o pkg/isoperf_bg.wasm
printf '[build] pkg/isoperf_bg.wasm: %s bytes\n' "$(wc -c < pkg/isoperf_bg.wasm)"
