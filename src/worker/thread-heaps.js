// The JS heaps of the worker threads a scenario's target starts: each is
// its own V8 isolate, and Node 20 has no worker.getHeapStatistics() (it
// came with Node 22.16 and 24). Each thread counted (threads.js) carries a
// reporter (thread-heap-reporter.cjs); at the held checkpoints (held.js,
// outside the timed region) the soak worker asks the threads alive on the
// reporter's BroadcastChannel, and each collects its garbage and replies
// with its heap in use. When every one of them replied after a full GC,
// their sum is the sample (METRIC.threadsJsHeap), judged apart from the
// soak worker's own heap; else the checkpoint is missed. A thread still
// starting (its reporter has not said it is ready) is sent the request once
// it is. A thread that let a request go unanswered (one long call: napi-rs's
// wasi threads live inside wasi_thread_start and never turn their event
// loop) is not waited for again until it answers one: the wait costs
// REPLY_MS once.

import { fileURLToPath } from 'node:url';
import { addon } from '../addon.js';
import { METRIC } from '../protocol.js';

/** The reporter's path: the --require each thread gets, and the name of their channel. */
export const REPORTER = fileURLToPath(new URL('./thread-heap-reporter.cjs', import.meta.url));

// How long a checkpoint waits for the threads' replies: an idle thread
// answers within a turn of its event loop, a busy one perhaps never.
const REPLY_MS = 2000;

/**
 * The threads' heap sampler; alive() gives the ids of the threads counted
 * and alive. Returns { sample(runner), result(), close() }: sample takes
 * one checkpoint's sum into runner (nothing when no thread is alive);
 * result() is { taken, missed }: the checkpoints with threads alive that
 * gave a sum, and those that did not.
 */
export function createThreadHeaps(alive) {
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
    if (waiting.replies.size === waiting.threads.length) waiting.done();
  };

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
      waiting.done = () => finish([...waiting.replies.values()]);
    });
  }

  return {
    async sample(runner) {
      const threads = alive();
      if (threads.length === 0) return;
      const request = { seq: ++seq, threads };
      const wait = !threads.some((id) => silent.has(id));
      for (const id of threads) silent.add(id);
      channel.postMessage({ seq: request.seq, threads: threads.filter((id) => ready.has(id)) });
      const got = wait ? await replies(request) : null;
      if (got?.every((r) => r.collected)) {
        addon.metric(
          runner,
          METRIC.threadsJsHeap,
          got.reduce((sum, r) => sum + r.bytes, 0),
        );
        taken++;
      } else missed++;
    },
    result: () => ({ taken, missed }),
    close() {
      channel.close();
    },
  };
}
