// What a trap is, and what is said about one. A trap (a Rust panic is
// `unreachable`; a bad access, `memory access out of bounds`) stops a call
// half way: the instance's stack pointer and allocator stay as they were at
// that moment, so every later call on it fails too. Whoever calls the
// module replaces the instance (the glue's __wbg_reset_state(), see
// scripts/build.sh) and shows this message: the page's thread in wasm.js,
// each worker in worker-serve.js. Imports nothing, so both can use it.

/**
 * Whether `e` came from a trap: a WebAssembly.RuntimeError, or the engine's
 * stack overflow (a RangeError), which leaves the instance as broken.
 */
export function isTrap(e) {
  return e instanceof WebAssembly.RuntimeError || (e instanceof RangeError && /call stack/i.test(e.message));
}

/** The message of the plain Error that takes a trap's place (callers show it as any other failure). */
export function internalMessage(e) {
  return `Internal error (${e?.message || 'a WebAssembly trap'}); isoperf restarted its WebAssembly module.`;
}
