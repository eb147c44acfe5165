// What leaked blocks hold, worker side (--block-contents): a mark of the
// chunks in use in each censused memory at the first slow sample past the
// warm-up's bound (--warmup N, else the auto warm-up's cap: a quarter of the
// run's calls or of its --duration), and at the end of the loop a pick of a
// few chunks in use then and not at the mark, in the size classes that grew
// (addon.blocksMark and addon.blocksPick, ws_blocks.h: bitmaps and walks in
// C, charged to the census budget). A run bounded by neither calls nor time,
// with --warmup auto, has no bound to mark at: it picks nothing.
import { addon } from '../addon.js';
import { WARMUP_CAP_DIVISOR } from '../protocol.js';

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The block contents of runner's run under config ({ warmup, iterations,
 * durationMs }). Returns { sample(done, elapsedMs, memories): marks the
 * first memories (0 to memories - 1) once done calls (from the first) or
 * elapsedMs pass the bound, result(): null before the mark, else {
 * markedAt, memories: [{ index, blocks: [{ address, size, sizeClass, hex
 * }] | null }] } (null: the census no longer recognised the heap) }.
 */
export function createBlockContents(runner, config) {
  const fixed = typeof config.warmup === 'number';
  const dueCalls = fixed ? config.warmup : (config.iterations ?? Infinity) / WARMUP_CAP_DIVISOR;
  const dueMs = !fixed && config.durationMs ? config.durationMs / WARMUP_CAP_DIVISOR : Infinity;
  let markedAt = null;
  const marked = [];
  return {
    sample(done, elapsedMs, memories) {
      if (markedAt !== null || (done < dueCalls && elapsedMs < dueMs)) return;
      markedAt = done;
      for (let k = 0; k < memories; k++) if (addon.blocksMark(runner, k)) marked.push(k);
    },
    result() {
      if (markedAt === null) return null;
      return {
        markedAt,
        memories: marked.map((index) => {
          const blocks = addon.blocksPick(runner, index);
          return {
            index,
            blocks:
              blocks === null
                ? null
                : blocks.map((b) => ({ address: b.address, size: b.size, sizeClass: b.sizeClass, hex: hex(b.bytes) })),
          };
        }),
      };
    },
  };
}
