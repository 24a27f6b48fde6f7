#!/usr/bin/env bash
# Installs what the build (and, with the argument "browser", the tests) need.
# Idempotent: each step checks first, so a warm machine spends seconds here.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The wasm-bindgen CLI must match the library version in Cargo.lock exactly.
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
  say "installing wasm-bindgen-cli $want (about 2.5 minutes, once)"
  cargo install wasm-bindgen-cli --version "=$want" --locked || cargo install wasm-bindgen-cli --version "=$want"
fi

# binaryen's wasm-opt, playwright-core, esbuild (npm run dist), typescript (the package test) and axe-core
# (the accessibility test), pinned by package-lock.json.
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -x node_modules/.bin/esbuild ] || [ ! -x node_modules/.bin/tsc ] || [ ! -f node_modules/axe-core/axe.min.js ]; then
  say "installing npm packages"
  npm ci --no-audit --no-fund
fi

if [ "${1:-}" = browser ]; then
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    say "installing Debian's chromium and chromium-driver for the browser tests"
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver
  fi
fi
