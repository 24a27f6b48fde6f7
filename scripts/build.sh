#!/usr/bin/env bash
# Builds the wasm package into pkg/, two modules from one crate:
#   isoperf.js + isoperf_bg.wasm            the full module (every export; the npm package)
#   isoperf_core.js + isoperf_core_bg.wasm  the page's first-paint module
#                                           (--no-default-features: registry, report, evaluate)
# each by cargo, then wasm-bindgen (with TypeScript declarations), then wasm-opt.
# --experimental-reset-state-function: each glue exports __wbg_reset_state(),
# which makes a new instance from the compiled module it keeps (a trap leaves
# an instance broken for good; www/wasm.js and www/worker-serve.js replace it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
wasm=target/wasm32-unknown-unknown/release/isoperf.wasm
opt() {
  node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue "$1" -o "$1"
}
cargo build --release --target wasm32-unknown-unknown --lib
wasm-bindgen --target web --experimental-reset-state-function --out-dir pkg "$wasm"
# wasm-opt runs on one core for about half a minute on the full module: it
# optimises that one while cargo builds the first-paint module beside it.
opt pkg/isoperf_bg.wasm &
full_opt=$!
# The first-paint module is what every first visit waits for: its own code
# (not its dependencies) is optimised for size, which saves about 9 KB gzip
# (5%) against opt-level "s"; the full module, which computes maps and
# sweeps, keeps the release profile's speed.
cargo build --release --target wasm32-unknown-unknown --lib --no-default-features \
  --config 'profile.release.package.isoperf.opt-level="z"'
wasm-bindgen --target web --experimental-reset-state-function --out-dir pkg --out-name isoperf_core "$wasm"
opt pkg/isoperf_core_bg.wasm
wait "$full_opt"
printf '[build] pkg/isoperf_bg.wasm: %s bytes; pkg/isoperf_core_bg.wasm: %s bytes\n' \
  "$(wc -c < pkg/isoperf_bg.wasm)" "$(wc -c < pkg/isoperf_core_bg.wasm)"
node scripts/package.mjs
