// The slow-cadence samples the loop takes between batches (outside the
// timed region): the JS heap, every memory's size, the allocator sources'
// values, each memory's heap census, the time-split pass's stamps so far, block contents, a native library's own
// heap, a scenario's stats(), then a held sample when one is due (held.js).
import { getHeapStatistics } from 'node:v8';
import { addon } from '../addon.js';
import { METRIC } from '../protocol.js';
import { createSources } from './allocator/sources.js';
import { createStatsReader } from './stats-values.js';

/**
 * The sampler of a run: memories (memories.js), held (held.js) and the
 * loop's first iteration. Its state is the allocator sources, made again
 * when new instances appeared.
 */
export function createSlowSampler({ memories, held, firstIteration }) {
  const readStats = createStatsReader();
  let sources = null;
  let sourcesSeen = 0;
  /** The allocator sources, made again when the instances changed. */
  function current() {
    if (sources === null || memories.instanceCount() !== sourcesSeen) {
      sources = createSources(memories.liveInstances());
      sourcesSeen = memories.instanceCount();
    }
    return sources;
  }
  let emit = null; // (id, value) => the metric into the run's runner, made once
  return {
    /** What the sources are, for the ready message. */
    describe: () => current().describe(),
    /**
     * Takes one slow sample into runner; blockContents: block-contents.js's,
     * or null. Returns null when it is taken, else a promise of the rest (a
     * scenario's stats(), a held sample): a sample without them allocates
     * little, and the loop takes thousands (bench/self-soak.js).
     */
    sample(runner, prepared, blockContents, elapsedMs) {
      addon.metric(runner, METRIC.jsHeap, getHeapStatistics().used_heap_size);
      addon.sampleMemories(runner);
      emit ??= (id, value) => addon.metric(runner, id, value);
      current().sample(emit);
      const censused = memories.censused();
      for (let k = 0; k < censused; k++) addon.census(runner, k, true);
      blockContents?.sample(addon.completed(runner) - firstIteration, elapsedMs, censused);
      const own = prepared.native ? addon.nativeHeap(runner) : null;
      if (own) {
        addon.metric(runner, METRIC.allocatorLive, own.live);
        addon.metric(runner, METRIC.allocatorHeap, own.heap);
        addon.metric(runner, METRIC.allocatorFree, own.free);
      }
      if (prepared.scenario?.stats) return withStats(runner, prepared, elapsedMs);
      return held.sample(runner, addon.completed(runner), elapsedMs, memories.censused());
    },
  };

  /** The rest of a sample of a scenario with stats(): its values, then the held sample when due. */
  async function withStats(runner, prepared, elapsedMs) {
    const { scenario, state } = prepared;
    const s = readStats(await scenario.stats.call(scenario, state), addon.completed(runner) - 1);
    if (Number.isFinite(s.liveBytes)) addon.metric(runner, METRIC.liveBytes, s.liveBytes);
    if (Number.isFinite(s.heapBytes)) addon.metric(runner, METRIC.heapBytes, s.heapBytes);
    await held.sample(runner, addon.completed(runner), elapsedMs, memories.censused());
  }
}
