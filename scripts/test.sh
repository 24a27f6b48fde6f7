#!/usr/bin/env bash
# Runs every test: native (cargo test), wasm in headless Chromium
# (wasm-bindgen-test), and end to end in Chromium (Playwright).
# Installs what it needs first (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "setup"
bash scripts/setup.sh browser

step "native tests (cargo test)"
cargo test

step "wasm tests in headless Chromium"
CHROMEDRIVER="$(command -v chromedriver)" \
WASM_BINDGEN_TEST_TIMEOUT=120 \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --profile wasm-test --target wasm32-unknown-unknown --test web

step "build the page and what npm run dist ships"
bash scripts/build.sh
node scripts/dist.mjs

step "end-to-end tests in Chromium"
# Two files at a time (each has its own server and browser): the tests
# mostly wait on pages (one core busy on average), and two at a time take
# 329 s against 376 s one at a time on this project's 2-core machine.
node --test --test-concurrency=2 tests/e2e/
