// Compare's block gate (worker side): a compared arm runs its calls in
// blocks of config.blockCalls; after each block the worker reports it (with
// the block's checked outputs when asked for) and pauses, outside the timed
// region, until the main thread grants the next block in the CTL.grant word
// (src/compare/run-compare.js), so that arms run their blocks in turn while
// each keeps its instance.
import { CTL, OUTPUT_COUNTER, OUTPUT_VALUES, PHASE } from '../protocol.js';

const WAIT_MS = 200;

/**
 * control: the ring's Int32 control words; blockCalls: calls per block;
 * calls: the run's calls (after the last of them there is no block to wait
 * for: a batch whose time ran out on the run's last call returns before the
 * loop has said it is done, and a pause there would wait for a grant that
 * never comes); slots: the raw target's trampoline slots (ArrayBuffer) when outputs are
 * checked, else null; post(message): to the main thread; enter(phase): the
 * PHASE word. Returns { budget(done), reached(done), wait(done) }: the calls
 * left in the granted blocks, the report of a block just finished, and the
 * pause before a block not yet granted.
 */
export function createBlockGate({ control, blockCalls, calls, slots, post, enter }) {
  const counter = slots ? new Int32Array(slots, OUTPUT_COUNTER, 1) : null;
  const values = slots ? new BigInt64Array(slots, OUTPUT_VALUES) : null;
  let reported = 0;
  const granted = () => Atomics.load(control, CTL.grant) * blockCalls;
  return {
    budget: (done) => Math.max(0, granted() - done),
    /** Reports every block that done completed (once each). */
    reached(done) {
      while (reported + blockCalls <= done) {
        const block = reported / blockCalls;
        const outputs = values ? values.slice(0, blockCalls) : null;
        post({ type: 'block', block, completed: reported + blockCalls, outputs });
        reported += blockCalls;
        if (counter) counter[0] = 0; // the next block's first call stores at 0
      }
    },
    /** Pauses until the block after done is granted (or a stop is requested). */
    wait(done) {
      if (done < granted() || done >= calls) return;
      enter(PHASE.paused);
      for (;;) {
        const g = Atomics.load(control, CTL.grant);
        if (g * blockCalls > done || Atomics.load(control, CTL.stop)) break;
        Atomics.wait(control, CTL.grant, g, WAIT_MS);
      }
      enter(PHASE.loop);
    },
  };
}
