// What a run shows that is no finding (summary.notes, docs/verdicts.md):
// sustained memory trends below the floor, start-up growth that auto
// warm-up absorbed, live bytes freed in bursts, and the stable headline
// that quotes them. Every verdict here is judged at default thresholds.

import assert from 'node:assert/strict';
import test from 'node:test';
import { judge } from '../../../src/analysis/judge.js';
import { analyzeRun as analyzeFacts } from '../../../src/analysis/verdict.js';
import { analysisConfig } from '../../../src/library/analysis-config.js';
import { VERDICT_DEFAULTS } from '../../../src/protocol.js';
import { formatBytes } from '../../../src/report/format.js';
import { renderHtml } from '../../../src/report/html.js';
import { renderMarkdown } from '../../../src/report/markdown.js';
import { nextSteps } from '../../../src/report/next-steps.js';
import { analyzed as analyze } from '../../../src/report/result.js';
import { withSentences } from '../../../src/report/sentences.js';
import { noteLines, verdictLine } from '../../../src/report/words.js';
import { CALLS, syntheticRun } from '../../synthetic.js';

// The measured clean module: a smooth 400 KiB live heap (realloc churn, a
// bounded cache) that drifts by 55 B per 1,000 calls.
const TINY_DRIFT = { leak: 0.055, liveBase: 400 * 1024, wander: 0, noise: 64 };

// The summary of a synthetic run, as `wasm-soak run` would analyse it
// (default options from analysisConfig: no threshold is moved).
function summaryOf(data) {
  const header = {
    ...data.header,
    target: { name: 'synthetic', kind: 'module' },
    config: { iterations: CALLS, warmup: 'auto' },
    ops: [{ name: 'step', weight: 1 }],
  };
  const timed = { ...data, header, op: new Uint16Array(CALLS), flags: new Uint8Array(CALLS) };
  return analyze({ timed, cfg: analysisConfig(header), run: { status: 'completed' } }).summary;
}

// The trend verdicts as every output reads them: the facts, worded.
const analyzeRun = (data, options) => withSentences(analyzeFacts(data, options));

test('the memory floors are C defaults: 1 B per call and 5 %', () => {
  assert.equal(VERDICT_DEFAULTS.memFloorPerCall, 1);
  assert.equal(VERDICT_DEFAULTS.memFloorRelative, 0.05);
  for (const key of ['memFloorPerCall', 'memFloorRelative'])
    assert.throws(() => analyzeRun(syntheticRun(), { [key]: -1 }), { code: 'WS_EINVAL' });
});

test('a tiny significant drift of live bytes is below the floor: stable, with a note', () => {
  const s = summaryOf(syntheticRun({ seed: 4, ...TINY_DRIFT }));
  assert.equal(s.verdict, 'stable', JSON.stringify(s.findings));
  assert.equal(s.exitCode, 0);
  const live = s.series.find((x) => x.name === 'live-bytes');
  assert.equal(live.pattern, 'sustained');
  assert.ok(live.pValue < 0.01);
  const b = live.belowFloor;
  assert.ok(b.perCall > 0.04 && b.perCall < 0.07, JSON.stringify(b));
  assert.ok(b.relative > 0 && b.relative < 0.01, JSON.stringify(b));
  assert.equal(b.floorPerCall, VERDICT_DEFAULTS.memFloorPerCall);
  assert.equal(b.floorRelative, VERDICT_DEFAULTS.memFloorRelative);
  assert.ok(Math.abs(b.grownBytes - b.perCall * (live.window.to - live.window.from)) < 1e-6);
  const note = s.notes.find((n) => n.kind === 'below-floor');
  assert.equal(note.series, 'live-bytes');
  assert.equal(note.perCall, b.perCall);
  assert.match(
    note.sentence,
    /^Live bytes grew by 5\d B per 1,000 calls \(\+0\.\d+ % of their level over the tested window\): below the floor of 1 B per call and 5 %, so not a finding\. At this rate it would pass 5 % after about [\d,]+ more calls\.$/,
  );
  // The headline says a trend stayed below the floor; the note is listed.
  const v = verdictLine(s);
  assert.ok(v.ok);
  assert.match(
    v.text,
    /^No leak, fragmentation, growth or slowdown found in 20,000 calls; one trend below the memory floor/,
  );
  assert.deepEqual(noteLines(s), [note.sentence]);
  assert.match(renderMarkdown(s), /Notes \(no finding\):\n\n- Live bytes grew by/);
});

test('the floor is an option: at zero the same drift is a leak', () => {
  const data = syntheticRun({ seed: 4, ...TINY_DRIFT });
  const r = analyzeRun(data, { memFloorPerCall: 0, memFloorRelative: 0 });
  assert.equal(judge(r).verdict, 'leak');
  assert.deepEqual(r.notes, []);
  // A leak of 16 B per call clears the floor by far.
  assert.equal(judge(analyzeRun(syntheticRun({ seed: 4, leak: 16 }))).verdict, 'leak');
});

test('a thinned run states the floor per call, not per kept call', () => {
  // One call kept in 4, as a thinned log or the progress line's copy keeps
  // them; slow samples are kept in full, at their iterations.
  const data = syntheticRun({ seed: 4, ...TINY_DRIFT });
  const stride = 4;
  const thinned = { ...data, stride, calls: CALLS / stride, elapsed: data.elapsed.filter((_, i) => i % stride === 0) };
  const full = analyzeRun(data).notes.find((n) => n.kind === 'below-floor');
  const r = analyzeRun(thinned);
  assert.equal(judge(r).verdict, 'stable', JSON.stringify(r.findings));
  const note = r.notes.find((n) => n.kind === 'below-floor');
  assert.ok(Math.abs(note.perCall / full.perCall - 1) < 0.2, `${note.perCall} vs ${full.perCall}`);
  assert.equal(r.series.find((x) => x.name === 'live-bytes').belowFloor.floorPerCall, 1);
});

test('large start-up growth is said in a stable run headline', () => {
  const s = summaryOf(syntheticRun({ seed: 4, startupBytes: 12 << 20 }));
  assert.equal(s.verdict, 'stable', JSON.stringify(s.findings));
  assert.equal(s.warmup.method, 'auto');
  const note = s.notes.find((n) => n.kind === 'startup-growth');
  assert.equal(note.series, 'memory');
  assert.equal(note.iterations, s.warmup.iterations);
  assert.equal(note.grownBytes, s.warmup.startupGrowthBytes);
  assert.equal(note.toBytes - note.fromBytes, note.grownBytes);
  assert.ok(note.ratio >= 4, JSON.stringify(note));
  const v = verdictLine(s);
  assert.equal(v.title, 'Stable');
  assert.match(
    v.text,
    /^Memory grew 1\.1 MiB → 13\.\d MiB during the first [\d,]+ calls \(start-up\), then 13\.\d MiB → 13\.\d MiB after warm-up \(1 growth event\), no sustained growth\. No leak, fragmentation, growth or slowdown found in 20,000 calls\.$/,
  );
  // The headline quotes it; it is not listed again.
  assert.deepEqual(noteLines(s), []);
  assert.match(renderMarkdown(s), /## ✅ Stable: synthetic \(seed 4\)\n\nMemory grew 1\.1 MiB → 13\.\d MiB/);
  // The HTML banner says it too, and the findings no longer claim flat series.
  const html = renderHtml(s);
  assert.match(html, /<h1>Stable — synthetic \(seed 4\)<\/h1><p>Memory grew 1\.1 MiB → 13\.\d MiB/);
  assert.doesNotMatch(html, /every tested series stayed flat/);
  // Without start-up growth nothing is said.
  const plain = summaryOf(syntheticRun({ seed: 4 }));
  assert.deepEqual(plain.notes, []);
  assert.match(verdictLine(plain).text, /^No leak, fragmentation, growth or slowdown found in 20,000 calls\.$/);
});

// Linear memory that grows 1.4 -> 9 MiB in start-up, then, after a pause,
// keeps climbing in bursts (a GC that runs late) ever more slowly, two
// pages a step: a forgotten free() whose blocks finalizers reclaim.
function climbingAfterStartup(data) {
  const mib = 1 << 20;
  const iter = [0];
  const bytes = [1.4 * mib];
  for (let i = 1; i <= 20; i++) {
    iter.push(i * 25);
    bytes.push(1.4 * mib + (7.6 * mib * i) / 20);
  }
  let top = bytes.at(-1);
  for (let c = 2000; c < CALLS; c += 300) {
    const target = 9.5 * mib + 8 * mib * ((c - 2000) / 18000) ** 0.2;
    for (let j = 0; target > top + 65536; j++) {
      top += 2 * 65536;
      iter.push(c + j);
      bytes.push(top);
    }
  }
  return { ...data, memory: { iter: Float64Array.from(iter), bytes: Float64Array.from(bytes) } };
}

test('memory that keeps climbing after start-up is an open question, never worded as start-up', () => {
  const s = summaryOf(climbingAfterStartup(syntheticRun({ seed: 4, live: false })));
  const memory = s.series.find((x) => x.name === 'memory');
  assert.equal(memory.pattern, 'step');
  assert.ok(memory.pValue < 0.01 && memory.events.count > 50, JSON.stringify(memory));
  assert.equal(s.verdict, 'inconclusive', JSON.stringify(s.findings));
  assert.equal(s.exitCode, 0);
  const open = s.inconclusive.find((u) => u.series === 'memory');
  assert.equal(open.reason, 'still-rising');
  // Its numbers are the series' after warm-up: its growth events' start and end.
  const from = memory.events.baseBytes;
  const to = from + memory.events.grownBytes;
  assert.ok(to > 17 * (1 << 20), JSON.stringify(memory.events));
  const risen = `${formatBytes(from)} → ${formatBytes(to)} after warm-up (${memory.events.count} growth events`;
  assert.ok(open.sentence.startsWith(`Linear memory rose ${risen}, p = `), open.sentence);
  assert.match(
    open.sentence,
    /has not levelled off, still setting new highs as its climb slowed: about [\d,]+ more calls/,
  );
  // The start-up note says the climb went on, and the headline leads with the question.
  const note = s.notes.find((n) => n.kind === 'startup-growth');
  assert.ok(note.sentence.endsWith(`(start-up), then kept rising: ${risen}).`), note.sentence);
  assert.doesNotMatch(note.sentence, /levelled off|stayed flat/);
  const v = verdictLine(s);
  assert.equal(v.text, open.sentence);
  assert.deepEqual(noteLines(s), [note.sentence]);
});

test('a plateau step after warm-up is stable, and the report does not call memory flat', () => {
  // One 64 KiB step at 14,000 calls of 20,000 (wasi-libc's dlmalloc on a bounded working set).
  const s = summaryOf(syntheticRun({ seed: 4, plateau: true }));
  assert.equal(s.series.find((x) => x.name === 'memory').pattern, 'step');
  assert.equal(s.verdict, 'stable', JSON.stringify(s.inconclusive));
  assert.deepEqual(s.notes, []);
  const html = renderHtml(s);
  assert.match(html, /<h2>Findings<\/h2><p>None\.<\/p>/);
  assert.doesNotMatch(html, /stayed flat/);
  // Without the step, every tested series stayed flat, and the report says so.
  assert.match(
    renderHtml(summaryOf(syntheticRun({ seed: 4 }))),
    /None: every tested series stayed flat after warm-up\./,
  );
});

test('a rise left open below the floor is a note, never a question', () => {
  // Live bytes step up by 900 B mid-run and creep on by 0.03 B per call: the
  // step's second half still rises, by 0.09 B per call, 0.8 % of 200 KiB.
  const data = syntheticRun({ seed: 4 });
  const iter = Float64Array.from({ length: CALLS / 100 }, (_, i) => 100 * i + 99);
  const value = Float64Array.from(iter, (x, i) => 200 * 1024 + (x > 9000 ? 900 : 0) + 0.03 * x + ((i * 37) % 64));
  data.metrics.liveBytes = { iter, tMs: iter.map((x) => x / 10), value };
  const s = summaryOf(data);
  const live = s.series.find((x) => x.name === 'live-bytes');
  assert.equal(live.pattern, 'step');
  assert.equal(s.verdict, 'stable', JSON.stringify(s.inconclusive));
  assert.deepEqual(s.inconclusive, []);
  assert.ok(live.belowFloor.perCall < 0.1 && live.belowFloor.relative < 0.01, JSON.stringify(live.belowFloor));
  const note = s.notes.find((n) => n.kind === 'below-floor');
  assert.equal(note.series, 'live-bytes');
  assert.match(note.sentence, /below the floor of 1 B per call and 5 %, so neither a finding nor an open question\./);
  // With both floors at 0 the same rise is left open.
  const open = analyzeRun(data, { memFloorPerCall: 0, memFloorRelative: 0 });
  assert.deepEqual(
    open.inconclusive.map((u) => [u.reason, u.series]),
    [['still-rising', 'live-bytes']],
  );
  assert.match(
    open.inconclusive[0].sentence,
    /^Live bytes rose [\d.]+ KiB → [\d.]+ KiB after warm-up \(p = [\d.e-]+\) and have not levelled off: /,
  );
});

test('live bytes freed in bursts are a sawtooth note, quoted by the headline', () => {
  const s = summaryOf(syntheticRun({ seed: 5, burstBytes: 2 << 20, burstEvery: 2000 }));
  assert.equal(s.verdict, 'stable', JSON.stringify(s.findings));
  const note = s.notes.find((n) => n.kind === 'sawtooth');
  assert.equal(note.series, 'live-bytes');
  assert.ok(note.falls >= 8 && note.everyCalls === 2000, JSON.stringify(note));
  assert.ok(note.largestFallBytes > 1.5 * (1 << 20), JSON.stringify(note));
  assert.match(
    verdictLine(s).text,
    /Live bytes fall sharply \d+ times after warm-up \(by up to [12]\.\d MiB, about every 2,000 calls\)/,
  );
  // Noise alone, however wandering, is no sawtooth.
  for (const seed of [1, 2, 3]) assert.deepEqual(summaryOf(syntheticRun({ seed })).notes, []);
});

test('report.html puts the findings first, then what stayed undecided', () => {
  const s = summaryOf(syntheticRun({ seed: 5, leak: 96 }));
  assert.equal(s.verdict, 'leak', JSON.stringify(s.findings));
  // What a loaded machine leaves undecided beside a leak (docs/verdicts.md, "Inconclusive").
  const undecided = { ...s, inconclusive: [{ reason: 'machine-noise', sentence: 'Time per call: not judged.' }] };
  const html = renderHtml(undecided);
  const finding = html.indexOf('<div class="finding">');
  assert.ok(finding > 0 && html.indexOf('id="inconclusive"') > finding, 'the leak, then the undecided time');
});

test('the main finding first: a leak found beside a slowdown leads the banner and every report, undecided time below', () => {
  const s = summaryOf(syntheticRun({ seed: 5, leak: 96 }));
  const leak = s.findings.find((f) => f.kind === 'leak');
  const slowdown = { kind: 'slowdown', series: 'time', sentence: 'Calls get +3 % slower across the run.' };
  // Findings in the order a run may list them (series order: time first).
  const both = {
    ...s,
    findings: [slowdown, leak],
    inconclusive: [{ reason: 'machine-noise', sentence: 'Time per call: not judged.' }],
  };
  assert.equal(verdictLine(both).text, leak.sentence, 'the banner tells the leak');
  const html = renderHtml(both);
  const findings = html.indexOf('<div class="finding">');
  const [first, second] = [leak, slowdown].map((f) => html.indexOf(`<p>${f.sentence}</p>`, findings));
  const undecided = html.indexOf('id="inconclusive"');
  assert.ok(findings > 0 && findings < first && first < second && second < undecided, 'leak, slowdown, then undecided');
  const md = renderMarkdown(both);
  assert.ok(md.indexOf('**leak**') < md.indexOf('**slowdown**'), md);
  assert.ok(md.indexOf('**slowdown**') < md.indexOf('Inconclusive:'), md);
});

test('next steps: ops ranked by what they leave live, none under 1 % of the top, sizes as the census saw them', () => {
  const s = summaryOf(syntheticRun({ seed: 5, leak: 96 }));
  assert.equal(s.verdict, 'leak', JSON.stringify(s.findings));
  const op = (name, liveLeftBehind) => ({ name, calls: 10000, liveLeftBehind });
  const counted = {
    ...s,
    allocations: { ops: [op('script', 20_000), op('parse', 186_000_000), op('reset', 2_000_000)] },
  };
  const leftovers = (x) => nextSteps(x).filter((t) => / live per call on average/.test(t.text));
  const plain = leftovers(counted);
  assert.deepEqual(
    plain.map((t) => t.text.split(' ')[0]),
    ['parse', 'reset'],
    'the most first; script (2 B per call beside 18.2 KiB) is under the floor',
  );
  assert.match(plain[0].text, /an allocation of about that size/);
  const census = { growing: [{ fromBytes: 32, toBytes: 64, start: 10, end: 898_010, change: 898_000 }] };
  const withCensus = leftovers({ ...counted, census });
  assert.doesNotMatch(withCensus[0].text, /an allocation of about that size/, 'the census says the size');
  assert.match(withCensus[0].text, /chunk sizes the census saw accumulate/);
});
