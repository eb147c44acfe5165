// The JS heaps of the worker threads a scenario's target starts: each is
// its own V8 isolate, and Node 20 has no worker.getHeapStatistics() (it
// came with Node 22.16 and 24). Each thread counted (threads.js) carries a
// reporter (thread-heap-reporter.cjs); at the held checkpoints (held.js,
// outside the timed region) the soak worker asks the threads alive on the
// reporter's BroadcastChannel, and each collects its garbage and replies
// with its heap in use. When every one of them replied after a full GC,
// their sum is the sample (held.js records it as threadsJsHeap), judged
// apart from the soak worker's own heap; else the checkpoint is missed. A thread still
// starting (its reporter has not said it is ready) is sent the request once
// it is. A thread that let a request go unanswered (one long call: napi-rs's
// wasi threads live inside wasi_thread_start and never turn their event
// loop) is not waited for again until it answers one: the wait costs
// REPLY_MS once.

import { fileURLToPath } from 'node:url';

/** The reporter's path: the --require each thread gets, and the name of their channel. */
export const REPORTER = fileURLToPath(new URL('./thread-heap-reporter.cjs', import.meta.url));

// How long a checkpoint waits for the threads' replies: an idle thread
// answers within a turn of its event loop, a busy one perhaps never.
const REPLY_MS = 2000;

/**
 * The threads' heap sampler of counter (threads.js: alive() gives the ids
 * of the threads counted and alive, onExit(fn) tells of each exit). Returns
 * { sample(), result(), close() }: sample resolves to one checkpoint's sum
 * in bytes, or null (no thread alive, or the checkpoint missed);
 * result() is { taken, missed }: the checkpoints with threads alive that
 * gave a sum, and those that did not.
 */
export function createThreadHeaps(counter) {
  let seq = 0;
  let taken = 0;
  let missed = 0;
  const ready = new Set(); // their reporters listen
  const silent = new Set(); // asked and not answered since
  let waiting = null; // { seq, threads, replies: Map(threadId → { bytes, collected }), done() }
  // Open before the target loads: a thread's ready comes once, when it starts.
  const channel = new BroadcastChannel(REPORTER);
  channel.unref();
  channel.onmessage = ({ data }) => {
    silent.delete(data.threadId);
    if (data.ready) {
      ready.add(data.threadId);
      // A thread the request in flight names, which was still starting: ask it now.
      if (waiting?.threads.includes(data.threadId)) channel.postMessage({ seq: waiting.seq, threads: [data.threadId] });
      return;
    }
    if (waiting?.seq !== data.seq) return;
    waiting.replies.set(data.threadId, data);
    if (waiting.threads.every((id) => waiting.replies.has(id))) waiting.done();
  };
  // A thread that exits while asked is no longer waited for: its heap left with it.
  counter.onExit((id) => {
    silent.delete(id);
    ready.delete(id);
    if (!waiting?.threads.includes(id)) return;
    waiting.threads = waiting.threads.filter((t) => t !== id);
    if (waiting.threads.every((t) => waiting.replies.has(t))) waiting.done();
  });

  /** The replies to request, when all came, or null once REPLY_MS passed. */
  function replies(request) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(null), REPLY_MS);
      const finish = (value) => {
        clearTimeout(timer);
        waiting = null;
        resolve(value);
      };
      waiting = { seq: request.seq, threads: request.threads, replies: new Map() };
      waiting.done = () => finish(waiting.threads.map((id) => waiting.replies.get(id)));
    });
  }

  return {
    async sample() {
      const threads = counter.alive();
      if (threads.length === 0) return null;
      const request = { seq: ++seq, threads };
      const wait = !threads.some((id) => silent.has(id));
      for (const id of threads) silent.add(id);
      channel.postMessage({ seq: request.seq, threads: threads.filter((id) => ready.has(id)) });
      const got = wait ? await replies(request) : null;
      if (!(got?.length > 0 && got.every((r) => r.collected))) {
        missed++;
        return null;
      }
      taken++;
      return got.reduce((sum, r) => sum + r.bytes, 0);
    },
    result: () => ({ taken, missed }),
    close() {
      channel.close();
    },
  };
}
