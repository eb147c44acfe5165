// Failed memory.grow calls, handed to the loop (ws_loop_grow_failed, which
// writes them as growFailed records after the call's record): the bytes
// asked for, the memory's bytes then, and what is known of its maximum.
// Nothing is allocated on the way; a grow that fails before the loop exists
// (during setup) is not counted.
import { addon } from '../addon.js';
import { PAGE_BYTES } from '../protocol.js';

/** { attach(runner), fromJs(memory, delta, error), fromWasm(deltaPages, pages, maximumPages) }. */
export function createGrowFailures() {
  let runner = null;
  const report = (asked, bytes, maximum) => {
    if (runner) addon.growFailed(runner, asked, bytes, maximum);
  };
  return {
    attach(r) {
      runner = r;
    },
    /**
     * memory.grow(delta) from JS threw its RangeError. JS does not see a
     * memory's declared maximum; V8 words the two failures differently
     * ("Maximum memory size exceeded" past it, "Unable to grow instance
     * memory" when it refused), so its message says which (-1: past the
     * maximum, 0: not known to be). A delta that is not a number is not
     * converted again (a valueOf would run twice): 0 bytes asked.
     */
    fromJs(memory, delta, error) {
      const asked = typeof delta === 'number' && delta > 0 ? delta * PAGE_BYTES : 0;
      const past = /maximum memory size/i.test(String(error?.message)) ? -1 : 0;
      report(asked, memory.buffer.byteLength, past);
    },
    /** A memory.grow instruction returned -1 (the counting pass's rewrite); maximumPages 0: none declared. */
    fromWasm(deltaPages, pages, maximumPages) {
      report(deltaPages * PAGE_BYTES, pages * PAGE_BYTES, maximumPages * PAGE_BYTES);
    },
  };
}
