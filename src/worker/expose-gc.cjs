// V8's gc() for the thread that calls it, taken from a fresh context:
// --expose-gc is on only while that context is created (V8 flags are
// process-wide; the host's stay as they were), and no other context gets
// it. The gc() of any context collects its whole isolate. CommonJS, so that
// a thread's reporter loaded with --require (thread-heap-reporter.cjs) and
// the soak worker's held samples (held.js) share it.
'use strict';
const { setFlagsFromString } = require('node:v8');
const { runInNewContext } = require('node:vm');

// Threads that take it at the same moment race on the process-wide flag
// (one turns it off before another's context is made): each tries again,
// up to this many times.
const TRIES = 8;

// gc() of a fresh context, or null where that context has none (read in one
// evaluation: another thread may turn the flag off between two).
const GC_OF_CONTEXT = 'typeof gc === "function" ? gc : null';

/** V8's gc() for the calling thread's isolate, or null when every try lost the race. */
function exposeGc() {
  const hosts = runInNewContext(GC_OF_CONTEXT); // the host has it on (or another thread, this moment)
  if (hosts) return hosts;
  for (let i = 0; i < TRIES; i++) {
    setFlagsFromString('--expose-gc');
    try {
      const gc = runInNewContext(GC_OF_CONTEXT);
      if (gc) return gc;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  return null;
}

module.exports = { exposeGc };
