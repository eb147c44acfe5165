// Loaded into each worker thread a scenario's target starts, before the
// thread's own code: threads.js adds `--require <this file>` to the
// thread's execArgv (--require, not --import: Node 20 runs --import only in
// threads started from a file, not from code with eval: true). On a
// BroadcastChannel named by this file's path, which both sides know, it
// says it is ready (a request posted before it listened never reached it),
// then answers the soak worker's requests (thread-heaps.js): a request that
// names this thread's id gets a full GC of the thread's heap, then a reply
// with the bytes of it in use. The channel is unref'd, so it never keeps the thread
// alive, and the thread's own code runs as it would without it. It answers
// when the thread's event loop turns: a thread inside one long call (a wasi
// thread in wasi_thread_start) does not.
'use strict';
const { getHeapStatistics } = require('node:v8');
const { threadId } = require('node:worker_threads');
const { exposeGc } = require('./expose-gc.cjs');

let collectGarbage = null;
const channel = new BroadcastChannel(__filename);
channel.unref();
channel.onmessage = ({ data }) => {
  if (!Array.isArray(data?.threads) || !data.threads.includes(threadId)) return;
  // Nothing it does may throw into the thread: an error there would end the target's thread.
  try {
    collectGarbage ??= exposeGc();
    collectGarbage?.();
    const collected = Boolean(collectGarbage);
    channel.postMessage({ seq: data.seq, threadId, bytes: getHeapStatistics().used_heap_size, collected });
  } catch {
    // No reply: the soak worker counts the checkpoint missed.
  }
};
channel.postMessage({ seq: null, threadId, ready: true });
