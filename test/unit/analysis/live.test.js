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
