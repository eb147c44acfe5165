// Names wasm-soak gives to what it adds to a target, shared by the worker
// that adds it (src/worker/targets/trampoline.js) and the report that hides
// it from a failure's stack (src/report/stack.js).

/** The name of the argument trampoline's functions, as a stack trace shows them. */
export const TRAMPOLINE_NAME = 'wasm-soak:trampoline';
