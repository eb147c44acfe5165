// Which series the memory figure draws (src/report/plots/memory-series.js),
// apart from the drawing: where heap and live bytes came from, the census
// line that is not drawn twice, the JS heap's own axis, each memory that grew.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memorySeries } from '../../../src/report/plots/memory-series.js';

/** A series of n samples rising by step from start. */
const series = (n = 10, start = 1000, step = 0) => ({
  iter: Float64Array.from({ length: n }, (_, i) => i * 100),
  value: Float64Array.from({ length: n }, (_, i) => start + i * step),
});
const run = (metrics, extra = {}) => ({ calls: 1000, metrics, header: { memories: [] }, ...extra });

test("the scenario's stats() first, named as such", () => {
  const m = { heapBytes: series(), liveBytes: series(), allocatorLive: series(), allocatorHeap: series() };
  const c = memorySeries(run(m), {});
  assert.equal(c.heap, m.heapBytes);
  assert.equal(c.live, m.liveBytes);
  assert.equal(c.heapSource, 'stats()');
  assert.equal(c.liveSource, 'stats()');
});

test("the allocator's own statistics, by the short name of its source", () => {
  const m = { allocatorLive: series(), allocatorHeap: series() };
  const c = memorySeries(run(m), { sources: { allocator: { source: 'mallinfo (uordblks, arena)' } } });
  assert.equal(c.heapSource, 'mallinfo');
  assert.equal(c.liveSource, 'mallinfo');
});

test("live bytes that are the census's are one line: the census's own live line is not drawn again", () => {
  const censusLive = series();
  const m = { liveBytes: censusLive, censusLive, censusFree: series(), heapBytes: series() };
  const c = memorySeries(run(m), {});
  assert.equal(c.census.live, null);
  assert.equal(c.census.free, m.censusFree);
  assert.equal(c.liveSource, 'heap census');
  assert.equal(c.censusTitle, 'the heap census', 'its free bytes still are');
});

test('a JS heap finding: the retained heap on its own axis, without RSS', () => {
  const m = { jsHeap: series(), jsHeapAfterGC: series(10, 5e6, 1e5), rss: series() };
  const summary = { findings: [{ kind: 'js-heap-growth', series: 'js-heap', slope: { perKiloIterations: 1e5 } }] };
  const c = memorySeries(run(m), summary);
  assert.equal(c.jsHeap, m.jsHeapAfterGC);
  assert.equal(c.retained, true);
  assert.equal(c.onRight, true);
  assert.equal(c.rss, null);
  assert.deepEqual([c.trendKey, c.trendWhat], ['jsheapfile', 'the JS heap']);
  // Without the finding, RSS stays beside it and no trend is fitted.
  const plain = memorySeries(run(m), {});
  assert.equal(plain.rss, m.rss);
  assert.equal(plain.trend, null);
});

test("the threads' JS heap finding: their summed heap on the right axis beside the worker's, without RSS", () => {
  const m = { jsHeapAfterGC: series(), threadsJsHeap: series(10, 4e6, 3e5), rss: series() };
  const summary = {
    findings: [{ kind: 'js-heap-growth', series: 'threads-js-heap', slope: { perKiloIterations: 3e5 } }],
  };
  const c = memorySeries(run(m), summary);
  assert.equal(c.threadsJsHeap, m.threadsJsHeap);
  assert.equal(c.jsHeap, m.jsHeapAfterGC);
  assert.equal(c.onRight, true);
  assert.equal(c.rss, null);
  assert.deepEqual([c.trendKey, c.trendWhat], ['threadsheapfile', "the threads' JS heap"]);
});

test('of several memories, each that grew, titled by its label', () => {
  const m = { 'memory:memory': series(10, 65536, 0), 'memory:memory#2': series(10, 65536, 65536) };
  const data = run(m, { header: { memories: [{ label: 'memory' }, { label: 'memory#2' }] } });
  const c = memorySeries(data, { memory: { memories: [{}, {}] } });
  assert.deepEqual(
    c.grown.memory.map((b) => b.title),
    ['linear memory "memory#2"'],
  );
  assert.equal(c.grown.memory[0].rows.at(-1)[0], 999, 'its steps run to the last call');
});
