// The progress line's preliminary verdict (src/analysis/live.js): the final
// analysis on the run so far, with the run's options and C's thresholds; a
// bounded copy that agrees with the final verdict; a schedule that keeps its
// cost under 2 % of the wall time. On a real run's log: test/e2e/live.test.js.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import test from 'node:test';
import { judgeTrends } from '../../../src/analysis/analyze.js';
import { createLiveAnalysis } from '../../../src/analysis/live.js';
import { decodeLog } from '../../../src/analysis/log-reader.js';
import { RECORD_SIZE } from '../../../src/protocol.js';
import { preliminaryWords } from '../../../src/report/progress-words.js';
import { createLogWriter, fileSink } from '../../../src/run/log-writer.js';
import { tempDir } from '../../helpers.js';
import { feed, syntheticRecords, syntheticRun } from '../../synthetic.js';

const HEADER = { seed: 3, memories: [{ label: 'memory', initialBytes: 131072, maximumBytes: null }] };
const CFG = { warmup: 'auto', timeThreshold: 0.1 };
const kinds = (r) => r.findings.map((f) => f.kind);

// The run through the log writer and the C log reader, as the final analysis reads it.
function finalTrend(records, cfg = CFG) {
  const path = join(tempDir(), 'samples.wslog');
  const w = createLogWriter(fileSink(path), HEADER);
  w.append(records);
  w.close();
  return judgeTrends(decodeLog(path), cfg).trend;
}

function liveOf(records, { cfg = CFG, capacity } = {}) {
  const live = createLiveAnalysis({ header: HEADER, cfg, capacity });
  feed(records, live.consume);
  return live;
}

const CASES = {
  stable: { seed: 2 },
  leak: { seed: 4, leak: 24 },
  fragmentation: { seed: 5, frag: 65536 / 1500 },
  growth: { seed: 6, frag: 65536 / 1500, live: false },
  slowdown: { seed: 7, drift: 0.3 },
  'js-heap-growth': { seed: 8, jsLeak: 200 },
};

/** The progress line's words for live's preliminary verdict (force: analyse now). */
const say = (live, force) => preliminaryWords(live.preliminary(force));

test('the preliminary verdict is the final analysis of the same calls', () => {
  for (const [want, opts] of Object.entries(CASES)) {
    const records = syntheticRecords(syntheticRun(opts));
    const final = finalTrend(records);
    const live = liveOf(records).analyze();
    assert.equal(final.verdict, want);
    assert.equal(live.stride, 1);
    for (const key of ['warmup', 'series', 'findings', 'verdict', 'windows'])
      assert.deepEqual(live[key], final[key], `${want}: ${key}`);
  }
});

test('a copy thinned 16-fold keeps the verdict of each kind', () => {
  for (const [want, opts] of Object.entries(CASES)) {
    const live = liveOf(syntheticRecords(syntheticRun(opts)), { capacity: 2048 }).analyze();
    assert.equal(live.stride, 16);
    assert.equal(live.calls, 20000);
    assert.equal(live.verdict, want, JSON.stringify(kinds(live)));
  }
});

test('the preliminary verdict has no thresholds of its own: it takes the run options', () => {
  const records = syntheticRecords(syntheticRun(CASES.slowdown));
  assert.deepEqual(kinds(liveOf(records).analyze()), ['slowdown']);
  const lax = { ...CFG, timeThreshold: 10 };
  const live = liveOf(records, { cfg: lax }).analyze();
  assert.deepEqual(kinds(live), []);
  assert.deepEqual(live.series, finalTrend(records, lax).series);
  // A fixed warm-up counts calls; the thinned copy counts kept calls.
  const fixed = liveOf(records, { cfg: { ...CFG, warmup: 3200 }, capacity: 2048 }).analyze();
  assert.equal(fixed.warmup.method, 'fixed');
  assert.equal(fixed.warmup.iterations, 3200 / 16);
});

test('the line says the verdict is preliminary, and analyses at most 2 % of the time', () => {
  let t = 0;
  let step = 0;
  // A clock that advances by step ms on every reading: an analysis costs step.
  const now = () => (t += step);
  const live = createLiveAnalysis({ header: HEADER, cfg: CFG, now });
  assert.equal(say(live), null, 'nothing before the first analysis is due');
  assert.match(say(live, true), /^preliminary verdict: too few calls yet$/);
  feed(syntheticRecords(syntheticRun(CASES.fragmentation)), live.consume);
  t += 5000;
  step = 40;
  assert.match(say(live), /^memory \+[\d.]+ (KiB|MiB) since warm-up · preliminary verdict: fragmentation \(so far\)$/);
  const { runs } = live.cost;
  // 40 ms per analysis: the next one waits 2 s / 2 % = 2 s at least.
  step = 0;
  t += 1900;
  say(live);
  assert.equal(live.cost.runs, runs, 'not due yet');
  t += 200;
  say(live);
  assert.equal(live.cost.runs, runs + 1);
  const c = live.cost;
  assert.ok(c.totalMs / c.wallMs <= 0.02 + 1e-9, JSON.stringify(c));
});

test('a chunk the copy cannot take stops the preliminary verdict, not the run', () => {
  const live = createLiveAnalysis({ header: HEADER, cfg: CFG });
  const records = syntheticRecords(syntheticRun(CASES.stable));
  const two = 2 * RECORD_SIZE;
  live.consume(records.subarray(0, two));
  live.consume(records.subarray(0, two)); // calls 0 and 1 again: out of order
  live.consume(records.subarray(two));
  assert.match(say(live, true), /^preliminary verdict unavailable \(.+\)$/);
});

// The glue's counts as the worker sends them at each held sample (src/worker/held.js).
const objectsAt = (iteration, classes) => ({
  iteration,
  classes: classes.map(([name, freeable, created, freed, reclaimed, collected]) => ({
    name,
    registry: true,
    freeable,
    created,
    freed,
    reclaimed,
    collected,
  })),
});

test('the line names the classes the application left to the collector since warm-up, and the lost ones', () => {
  const live = liveOf(syntheticRecords(syntheticRun(CASES.stable)));
  live.objects(objectsAt(10, [['Doc', true, 10, 0, 0, 0]]));
  live.objects(
    objectsAt(6000, [
      ['Doc', true, 6000, 0, 5000, 0], // every one left to the finalizers
      ['Tidy\x1b[2J', true, 6000, 6000, 0, 0], // freed: never named
      ['Node', true, 900, 0, 0, 800], // collected with no free: lost
    ]),
  );
  const words = say(live, true);
  assert.match(
    words,
    /· preliminary verdict: stable \(so far\) · never freed: 5,000 Doc \(left to the GC\) · lost: 800 Node \(collected, never freed\)$/,
  );
  assert.doesNotMatch(words, /Tidy/);
  const facts = live.preliminary();
  assert.deepEqual(
    facts.unfreed.left.map((c) => [c.name, c.created, c.reclaimed]),
    [['Doc', 5990, 5000]],
    'counted since the first snapshot at or before warm-up',
  );
});

test('class names reach the line with their control characters made visible', () => {
  const live = liveOf(syntheticRecords(syntheticRun(CASES.stable)));
  live.objects(objectsAt(6000, [['Evil\x1b[2J', true, 6000, 0, 6000, 0]]));
  const words = say(live, true);
  assert.ok(!words.includes('\x1b'), JSON.stringify(words));
  assert.match(words, /never freed: 6,000 Evil.*\(left to the GC\)$/);
});

test('no object counts, or every object freed: the line says nothing of objects', () => {
  const live = liveOf(syntheticRecords(syntheticRun(CASES.leak)));
  assert.doesNotMatch(say(live, true), /never freed|lost:/);
  live.objects(objectsAt(6000, [['Doc', true, 6000, 6000, 0, 0]]));
  assert.doesNotMatch(say(live, true), /never freed|lost:/);
});

test('the objects explain the preliminary verdict as they do the final one: a leak of lost objects is unfreed-objects', () => {
  const live = liveOf(syntheticRecords(syntheticRun(CASES.leak)));
  assert.match(say(live, true), /preliminary verdict: leak \(so far\)$/);
  // Objects the application never frees, collected with no free (a glue without finalizers): their blocks are lost.
  live.objects(objectsAt(10, [['Node', true, 10, 0, 0, 0]]));
  live.objects(objectsAt(6000, [['Node', true, 6000, 0, 0, 5000]]));
  assert.match(
    say(live, true),
    /preliminary verdict: unfreed-objects \(so far\) · lost: 5,000 Node \(collected, never freed\)$/,
  );
});
