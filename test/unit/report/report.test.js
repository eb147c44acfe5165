// Reports: figures through gnuplot, report.html in a real browser, summary.md,
// junit.xml, and what happens when gnuplot is missing or failing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { inflateSync } from 'node:zlib';
import { parseCommand } from '../../../src/library/parse-command.js';
import { formatP } from '../../../src/report/format.js';
import { renderJunit, writeJunit } from '../../../src/report/junit.js';
import { findingFigure, orderFigures } from '../../../src/report/lead.js';
import { nextSteps } from '../../../src/report/next-steps.js';
import { distributionFigure, distributionQuantilesAsync } from '../../../src/report/plots/distribution-figure.js';
import { timeFigure, timeRangeAsync } from '../../../src/report/plots/time-figure.js';
import { startFigures } from '../../../src/report/plots.js';
import { writeFormats } from '../../../src/report/report.js';
import { runResult } from '../../../src/report/suite-result.js';
import { verdictLine } from '../../../src/report/words.js';

const CHROMIUM = '/usr/bin/chromium';
const dirs = [];
async function tmp() {
  const d = await mkdtemp(join(tmpdir(), 'wasm-soak-report-'));
  dirs.push(d);
  return d;
}
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

// A decoded run (docs/architecture.md) with a warm-up, optional leak and mix.
function makeRun({ n = 6000, ops = ['step'], leak = false, live = true } = {}) {
  let s = 99;
  const rnd = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
  const elapsed = new Float32Array(n),
    op = new Uint16Array(n),
    flags = new Uint8Array(n);
  const iter = [0],
    bytes = [131072];
  const slow = { rss: [], jsHeap: [], liveBytes: [], heapBytes: [] },
    at = [];
  let mem = 131072,
    liveBytes = 40000;
  for (let i = 0; i < n; i++) {
    op[i] = i % ops.length;
    elapsed[i] = (800 + 600 * op[i]) * (1 + Math.max(0, 600 - i) / 200) * (0.9 + 0.2 * rnd());
    if (i === 3000) elapsed[i] = 2e6; // one spike decimation must keep
    if (leak) liveBytes += 48;
    if (liveBytes + 30000 > mem) {
      mem += 65536;
      iter.push(i);
      bytes.push(mem);
      flags[i] = 1;
    }
    if (i % 50 === 0) {
      at.push(i);
      slow.rss.push(5e7 + i * 8);
      slow.jsHeap.push(4e6);
      slow.liveBytes.push(liveBytes);
      slow.heapBytes.push(liveBytes + 30000);
    }
  }
  const series = (v) => ({
    iter: Float64Array.from(at),
    tMs: Float64Array.from(at, (x) => x / 10),
    value: Float64Array.from(v),
  });
  const metrics = { rss: series(slow.rss), jsHeap: series(slow.jsHeap) };
  if (live) Object.assign(metrics, { liveBytes: series(slow.liveBytes), heapBytes: series(slow.heapBytes) });
  return {
    header: { ops: ops.map((name) => ({ name, weight: 1 })) },
    calls: n,
    elapsed,
    op,
    flags,
    memory: { iter: Float64Array.from(iter), bytes: Float64Array.from(bytes) },
    metrics,
    durationMs: n / 10,
    backPressureWaits: 0,
    tornBytes: 0,
    complete: true,
  };
}

const window = (from, to, median) => ({ from, to, n: to - from, median, p90: median * 1.1, p99: median * 1.3 });

function makeSummary({ n = 6000, ops = ['step'], findings = [], status = 'completed', error = null } = {}) {
  const time = { early: window(600, 1140, 810), late: window(n - 540, n, 812) };
  return {
    schema: 'wasm-soak-summary',
    version: 1,
    name: 'fixture <&>',
    status,
    exitCode: status === 'failed' ? 2 : findings.length ? 1 : 0,
    seed: 42,
    command: ['wasm-soak', 'run', 'soak/modules/leak.wasm', '--call', 'step', '--seed', '42'],
    reproduce: 'wasm-soak run soak/modules/leak.wasm --call step --seed 42',
    target: {
      kind: 'module',
      path: 'soak/modules/leak.wasm',
      module: { path: 'soak/modules/leak.wasm', sha256: `${'c0ffee'.repeat(10)}abcd`, size: 2345 },
    },
    env: {
      node: 'v20.20.2',
      v8: '11.3.244.8-node.33',
      cpu: 'Test CPU @ 2GHz',
      cpus: 2,
      platform: 'linux',
      arch: 'x64',
    },
    iterations: { requested: n, completed: status === 'failed' ? 0 : n },
    durationMs: n / 10,
    samples: { calls: n, metrics: 480, tornBytes: 0, backPressureWaits: 0 },
    error,
    warmup: { method: 'auto', iterations: 600, time: 600, memory: 600, startupGrowthBytes: 65536 },
    time: status === 'failed' ? null : time,
    ops: ops.map((name) => ({ name, weight: 1, count: n / ops.length, threw: 0, time })),
    memory: {
      start: 131072,
      afterWarmup: 196608,
      end: 458752,
      max: 458752,
      growthEvents: 5,
      declaredMaximum: null,
      memories: [],
    },
    verdict: status === 'failed' ? null : (findings[0]?.kind ?? 'stable'),
    findings,
    series: [],
    outputs: { log: 'samples.wslog', figures: [], report: 'report.html' },
  };
}

const LEAK = {
  kind: 'leak',
  series: 'live-bytes',
  window: { from: 600, to: 6000 },
  slope: { perKiloIterations: 49152, low: 47000, high: 51000, unit: 'bytes' },
  pValue: 1e-12,
  effect: { relative: 0.8, low: 0.7, high: 0.9 },
  projection: { limitBytes: 4294967296, iterations: 87381000, wallMs: 8738100 },
  sentence: 'Live bytes grow by 48 KiB every 1,000 calls after warm-up and never come back: a leak.',
};
const SLOW = {
  kind: 'slowdown',
  series: 'time',
  window: { from: 600, to: 6000 },
  slope: { perKiloIterations: 0.004, low: 0.003, high: 0.005, unit: 'ln(ns)' },
  pValue: 2e-6,
  effect: { relative: 0.03, low: 0.02, high: 0.04 },
  projection: null,
  sentence: 'Calls get +3 % slower across the run (median 810 ns early, 835 ns late) while memory is flat.',
};

// Decodes an 8-bit RGB or RGBA PNG and counts its distinct colours.
function pngColours(buf) {
  assert.equal(buf.subarray(1, 4).toString(), 'PNG');
  let pos = 8,
    width = 0,
    height = 0,
    type = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos),
      kind = buf.subarray(pos + 4, pos + 8).toString();
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (kind === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      type = body[9];
      assert.equal(body[8], 8, 'bit depth 8');
      assert.equal(body[12], 0, 'not interlaced');
    }
    if (kind === 'IDAT') idat.push(body);
    pos += 12 + len;
  }
  const bpp = { 2: 3, 6: 4 }[type];
  assert.ok(bpp, `colour type ${type} is RGB or RGBA`);
  const raw = inflateSync(Buffer.concat(idat)),
    stride = width * bpp;
  const prev = Buffer.alloc(stride),
    cur = Buffer.alloc(stride),
    colours = new Set();
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)],
      line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? cur[x - bpp] : 0,
        b = prev[x],
        c = x >= bpp ? prev[x - bpp] : 0;
      const p = a + b - c,
        pa = Math.abs(p - a),
        pb = Math.abs(p - b),
        pc = Math.abs(p - c);
      const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter];
      cur[x] = (line[x] + pred) & 255;
    }
    for (let x = 0; x < stride; x += bpp) colours.add(cur.readUIntBE(x, 3));
    cur.copy(prev);
  }
  return colours.size;
}

test('a leaking op mix gets four figures and every report', async () => {
  const dir = await tmp();
  const ops = ['step', 'alloc_free'];
  const r = await writeFormats(dir, makeRun({ ops, leak: true }), makeSummary({ ops, findings: [LEAK, SLOW] }));
  assert.equal(r.skipped, null);
  assert.deepEqual(
    r.figures.sort(),
    ['distribution', 'memory', 'ops', 'time'].flatMap((f) => [`${f}.png`, `${f}.svg`, `${f}-narrow.svg`]).sort(),
  );
  assert.equal(r.gnuplotStderr, join(dir, 'gnuplot-stderr.txt'));
  for (const f of ['time', 'memory', 'distribution', 'ops']) {
    assert.ok(pngColours(await readFile(join(dir, `${f}.png`))) > 20, `${f}.png is not blank`);
  }
  const timeSvg = await readFile(join(dir, 'time.svg'), 'utf8');
  assert.match(timeSvg, /Time per call — fixture &lt;&amp;(&gt;|>) \(seed 42\)/);
  // The slowdown's slope is in ln(ns): a relative drift, drawn as a curve.
  // The figure and the page write the slope alike (format.js).
  assert.match(timeSvg, /Trend of time per call: \+0\.4 % per 1,000 calls \(95 % interval \+0\.3 % to \+0\.5 %\)/);
  assert.match(timeSvg, /<title>fitted trend of time per call \(the finding\)<\/title>/);
  assert.match(timeSvg, /spikes above the axis \(highest 2(\.00)? ms\)/);
  assert.doesNotMatch(timeSvg, /<title>(Gnuplot|gnuplot_plot_\d+)<\/title>/, 'every title says what it shows');
  assert.match(timeSvg, /<desc>Time per call over 6,000 iterations/);
  const memorySvg = await readFile(join(dir, 'memory.svg'), 'utf8');
  assert.match(memorySvg, /grew during step/);
  assert.match(memorySvg, /grew during alloc_free/);
  // The heap top stays 30,000 B above live bytes: a leak raises both, no held free is shaded.
  assert.match(memorySvg, /<title>heap top \(stats\(\)\)<\/title>/);
  assert.doesNotMatch(memorySvg, /held free/, 'a leak is no fragmentation');
  // The leak's series carries its fitted trend, labelled with slope and interval.
  assert.match(memorySvg, /Trend of live bytes: 48\.0 KiB per 1,000 calls \(95 % interval 45\.9 KiB to 49\.8 KiB\)/);
  assert.match(memorySvg, /<title>window tested \(iterations 600–6,000\)<\/title>/);
  const html = await readFile(join(dir, 'report.html'), 'utf8');
  assert.match(html, /class="banner bad"/);
  assert.match(html, /never come back: a leak\./);
  assert.match(html, /95 % interval 45\.9 KiB to 49\.8 KiB/);
  assert.match(html, /\+0\.4 % per 1,000 calls \(95 % interval \+0\.3 % to \+0\.5 %\)/);
  assert.match(html, /wasm-soak run soak\/modules\/leak\.wasm --call step --seed 42/);
  assert.match(html, /c0ffeec0ffee/);
  assert.match(html, /fixture &#60;&#38;&#62;/, 'the target name is escaped');
  assert.doesNotMatch(html, /<script|https?:\/\/(?!www\.w3\.org)/, 'no scripts, nothing fetched');
  const md = await readFile(join(dir, 'summary.md'), 'utf8');
  assert.match(md, /^## ❌ Leak: fixture/);
  assert.match(md, /\| alloc\\_free \| 3,000 \|/);
  assert.match(md, /\[time\]\(time\.png\)/);
  const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
  assert.match(junit, /tests="1" failures="1" errors="0"/);
  assert.equal(junit.match(/<failure /g).length, 2);
  assert.match(junit, /<failure message="Live bytes grow by 48 KiB/);
});

test('a stable single op without stats: green, no ops figure, formats honoured', async () => {
  const dir = await tmp();
  const r = await writeFormats(dir, makeRun({ live: false }), makeSummary(), { formats: ['png', 'md'] });
  assert.deepEqual(r.figures, ['time.png', 'memory.png', 'distribution.png']);
  assert.ok(!existsSync(join(dir, 'report.html')) && !existsSync(join(dir, 'junit.xml')));
  assert.match(await readFile(join(dir, 'summary.md'), 'utf8'), /^## ✅ Stable/);
  const dir2 = await tmp();
  await writeFormats(dir2, makeRun({ live: false }), makeSummary(), { formats: ['html'] });
  const html = await readFile(join(dir2, 'report.html'), 'utf8');
  assert.match(html, /class="banner ok"/);
  assert.match(html, /id="fig-memory"/);
  // A clean run: spikes in a neutral grey, nothing in the finding's red.
  const time = html.slice(html.indexOf('id="fig-time"'), html.indexOf('id="fig-memory"'));
  assert.match(time, /spikes above the axis/);
  assert.doesNotMatch(time, /rgb\(214,\s*39,\s*40\)/, 'no red on a clean run');
  assert.ok(html.indexOf('id="fig-time"') < html.indexOf('id="fig-memory"'), 'no finding: the usual order');
});

/** The arguments a shell makes of command (after "wasm-soak"), as the CLI would get them. */
function shellWords(command) {
  const r = spawnSync('/bin/sh', ['-c', `set -- ${command.replace(/^wasm-soak /, '')}; printf '%s\\0' "$@"`]);
  assert.equal(r.status, 0, String(r.stderr));
  return String(r.stdout).split('\0').slice(0, -1);
}

test('the commands of the next steps parse: Run longer replaces -n (and --duration), never appends a bare number', () => {
  const s = {
    ...makeSummary(),
    verdict: 'inconclusive',
    inconclusive: [{ reason: 'tooFewCalls', moreCalls: 505000 }],
    iterations: { requested: 20000, completed: 20000 },
    command: [
      'wasm-soak',
      'run',
      'leak.wasm',
      '--call',
      'step',
      '-n',
      '20000',
      '--duration=10m',
      '-o',
      'my results',
      '--seed',
      '2',
    ],
    findings: [{ ...LEAK, kind: 'growth', series: 'memory' }],
  };
  const steps = nextSteps(s).filter((x) => x.command);
  assert.ok(steps.length >= 3, steps.map((x) => x.text).join('\n'));
  for (const { text, command } of steps) {
    const [name, ...argv] = shellWords(command);
    const { values, positionals } = parseCommand(name, argv); // throws (exit 2) on what the CLI refuses
    assert.deepEqual(positionals, ['leak.wasm'], command);
    assert.equal(values.seed, 2, command);
    assert.equal(values.out, undefined, `never -o: ${command}`);
    if (/^Run longer/.test(text)) {
      assert.equal(values.iterations, 525000, command);
      assert.equal(values.durationMs, undefined, `-n decides the length: ${command}`);
    } else assert.equal(values.iterations, 20000, command);
  }
  assert.ok(steps.some((x) => /^Run longer \(525,000 calls\)/.test(x.text)));
  assert.ok(steps.some((x) => x.command.endsWith('--count-allocs')));
});

test('the next step is drawn from what the run knew; p-values never print as 0', () => {
  const steps = (s) => nextSteps(s).map((x) => `${x.text}${x.command ? ` $ ${x.command}` : ''}`);
  const growth = {
    ...makeSummary({ findings: [{ ...LEAK, kind: 'growth', series: 'memory' }] }),
    command: ['wasm-soak', 'run', 'leak.wasm', '--call', 'step', '-o', 'my results', '--seed', '42'],
  };
  const g = steps(growth);
  assert.match(
    g[0],
    /--count-allocs \(no rebuild\).* \$ wasm-soak run leak\.wasm --call step --seed 42 --count-allocs$/,
  );
  assert.match(
    g.at(-1),
    /without -o.* \$ wasm-soak run leak\.wasm --call step --seed 42$/,
    'never overwrites the evidence',
  );
  // Growth at the heap's end: the counting pass would measure the peaks.
  const atEnd = {
    ...growth,
    findings: [{ ...LEAK, kind: 'growth', cause: 'heap-end', series: 'memory' }],
  };
  assert.match(steps(atEnd)[0], /the peaks that grew the heap/);
  // With a counting pass: no --count-allocs, the bytes each op leaves live per call.
  const counted = withAllocator(makeSummary({ findings: [LEAK] }));
  const c = steps(counted);
  assert.ok(!c.some((t) => /--count-allocs \(no rebuild\)/.test(t)));
  assert.ok(
    c.some((t) => /leaves .* live per call on average/.test(t)),
    c.join('\n'),
  );
  // Growing size classes of the heap census, when the summary has them.
  const census = {
    ...growth,
    census: { recognised: true, growing: [{ fromBytes: 32, toBytes: 64, start: 10, end: 5010, change: 5000 }] },
  };
  assert.ok(steps(census).some((t) => /accumulate since warm-up: \+5,000 of 32 B–64 B/.test(t)));
  // Inconclusive: run longer, by how much.
  const unsure = { ...makeSummary(), verdict: 'inconclusive' };
  assert.match(steps(unsure)[0], /Run longer \(24,000 calls\).* -n 24000$/);
  const decides = { ...unsure, inconclusive: [{ reason: 'tooFewCalls', moreCalls: 14000 }] };
  assert.match(steps(decides)[0], /Run longer \(20,000 calls\): by this run's own rates.* -n 20000$/);
  assert.equal(verdictLine(unsure).unsure, true);
  // The figure that carries each finding comes first.
  assert.deepEqual(orderFigures(growth, ['time', 'memory', 'distribution']), ['memory', 'time', 'distribution']);
  assert.deepEqual(orderFigures(makeSummary({ findings: [SLOW] }), ['memory', 'time']), ['time', 'memory']);
  assert.equal(findingFigure({ kind: 'stack-drift', series: 'stack-depth' }), 'stack');
  assert.equal(formatP(0), '< 1e-16');
  assert.equal(formatP(3e-20), '< 1e-16');
  assert.equal(formatP(2e-6), '2.0e-6');
  assert.equal(formatP(0.00432), '0.0043', 'two significant digits, not two decimals');
  assert.equal(formatP(0.27), '0.27');
});

test('an inconclusive run says what is open and what would decide it in every report', async () => {
  const dir = await tmp();
  const summary = makeSummary();
  summary.verdict = 'inconclusive';
  summary.inconclusive = [
    { reason: 'late-step', series: 'memory', moreCalls: 8000, sentence: 'Linear memory took a large step late <&>.' },
  ];
  await writeFormats(dir, makeRun({ live: false }), summary, { formats: ['md', 'html', 'junit'] });
  const md = await readFile(join(dir, 'summary.md'), 'utf8');
  assert.match(md, /^## ⚠️ Inconclusive/);
  // Markup in a sentence is text in summary.md too (GitHub renders inline HTML).
  assert.match(md, /- late-step: Linear memory took a large step late &#60;&#38;&#62;\./);
  const html = await readFile(join(dir, 'report.html'), 'utf8');
  assert.match(html, /id="inconclusive"/);
  assert.match(html, /late-step: Linear memory took a large step late &#60;&#38;&#62;\./);
  const xml = await readFile(join(dir, 'junit.xml'), 'utf8');
  assert.match(xml, /verdict: inconclusive \(completed\)\ninconclusive: late-step: Linear memory/);
});

test('each figure is drawn by one gnuplot in all its formats', async () => {
  const dir = await tmp();
  const started = join(dir, 'started');
  const counting = join(dir, 'counting-gnuplot');
  await writeFile(counting, `#!/bin/sh\necho run >> "${started}"\nexec gnuplot "$@"\n`);
  await chmod(counting, 0o755);
  const saved = process.env.WASM_SOAK_GNUPLOT;
  process.env.WASM_SOAK_GNUPLOT = counting;
  try {
    const ops = ['step', 'alloc_free'];
    const r = await writeFormats(dir, makeRun({ ops, leak: true }), makeSummary({ ops, findings: [LEAK, SLOW] }));
    assert.equal(r.skipped, null);
    assert.equal(r.figures.length, 12, 'four figures, three formats each');
    assert.equal((await readFile(started, 'utf8')).trim().split('\n').length, 4, 'one gnuplot per figure');
  } finally {
    if (saved === undefined) delete process.env.WASM_SOAK_GNUPLOT;
    else process.env.WASM_SOAK_GNUPLOT = saved;
  }
});

test('the time bands decimated ahead (startFigures) are the ones drawn, and the same as decimated in turn', async () => {
  const { addon } = await import('../../../src/addon.js');
  const ops = ['step'];
  const timeSvg = async (ahead) => {
    const dir = await tmp();
    const run = makeRun({ ops });
    if (ahead) startFigures(ahead, run);
    await writeFormats(dir, run, makeSummary({ ops }), { formats: ['svg'] });
    return readFile(join(dir, 'time.svg'), 'utf8');
  };
  const inTurn = await timeSvg(null);
  assert.equal(await timeSvg(addon), inTurn, 'decimated on another thread: the same figure');
  // Bands of other times (each call twice as slow), handed over ahead: the figure draws them.
  const doubled = {
    decimateBandsAsync: (y, ...rest) =>
      addon.decimateBandsAsync(
        y.map((v) => 2 * v),
        ...rest,
      ),
  };
  assert.notEqual(await timeSvg(doubled), inTurn);
  // decimateBandsAsync resolves to what decimateBands returns, rejects what it throws.
  const y = Float32Array.from({ length: 100_003 }, (_, i) => ((i * 7919) % 1000) + (i % 17 === 0 ? 5e4 : 0));
  assert.deepEqual(
    await addon.decimateBandsAsync(y, 3, 100_003, 700, 2000),
    addon.decimateBands(y, 3, 100_003, 700, 2000),
  );
  await assert.rejects(addon.decimateBandsAsync(y, 0, 10, 2, 0), (err) => err.code === 'WS_EINVAL');
  assert.throws(() => addon.decimateBandsAsync(y, 0, 10, 20, 5), RangeError);
});

test('the figures quantiles computed on another thread are the ones drawn, and the same as computed in turn', async () => {
  const { addon } = await import('../../../src/addon.js');
  const y = Float32Array.from({ length: 100_003 }, (_, i) => ((i * 7919) % 1000) + (i % 17 === 0 ? 5e4 : 0));
  const p = new Float64Array([0, 0.01, 0.5, 0.99, 1]);
  // decimateQuantilesAsync resolves to what decimateQuantiles returns, rejects what it throws.
  assert.deepEqual(await addon.decimateQuantilesAsync(y, 3, 100_003, p), addon.decimateQuantiles(y, 3, 100_003, p));
  await assert.rejects(addon.decimateQuantilesAsync(y, 5, 5, p), (err) => err.code === 'WS_EINVAL');
  assert.throws(() => addon.decimateQuantilesAsync(y, 0, 100_004, p), RangeError);
  // The figures take the range and the quantiles handed to them.
  const run = makeRun();
  const summary = makeSummary();
  const ctx = { title: 't', x: { div: 1, label: 'iterations' }, stride: 1 };
  const range = await timeRangeAsync(addon, run, summary);
  assert.deepEqual(timeFigure(addon, run, summary, ctx, null, range), timeFigure(addon, run, summary, ctx));
  assert.notDeepEqual(
    timeFigure(
      addon,
      run,
      summary,
      ctx,
      null,
      range.map((v) => 2 * v),
    ),
    timeFigure(addon, run, summary, ctx),
  );
  const q = await distributionQuantilesAsync(addon, run, summary);
  assert.deepEqual(distributionFigure(addon, run, summary, ctx, q), distributionFigure(addon, run, summary, ctx));
  const doubled = { early: q.early.map((v) => 2 * v), late: q.late };
  assert.notDeepEqual(
    distributionFigure(addon, run, summary, ctx, doubled),
    distributionFigure(addon, run, summary, ctx),
  );
});

test('a failed run is an error, and plots are skipped with a reason', async () => {
  const dir = await tmp();
  const error = {
    message: 'RuntimeError: unreachable',
    iteration: 0,
    op: 'step',
    stack: 'RuntimeError: unreachable\n    at step',
  };
  const data = {
    ...makeRun(),
    calls: 0,
    elapsed: new Float32Array(0),
    op: new Uint16Array(0),
    flags: new Uint8Array(0),
  };
  const r = await writeFormats(dir, data, makeSummary({ status: 'failed', error }));
  assert.deepEqual(r.figures, []);
  assert.match(r.skipped, /no calls/);
  const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
  assert.match(junit, /errors="1"/);
  assert.match(junit, /<error message="RuntimeError: unreachable" type="run-failed">/);
  const html = await readFile(join(dir, 'report.html'), 'utf8');
  assert.match(html, /Run failed/);
  assert.match(html, /Plots were skipped/);
});

test('gnuplot missing or failing: reports complete, stderr kept, requirePlots throws', async () => {
  const saved = process.env.WASM_SOAK_GNUPLOT;
  try {
    const dir = await tmp();
    process.env.WASM_SOAK_GNUPLOT = join(dir, 'no-such-gnuplot');
    const r = await writeFormats(dir, makeRun(), makeSummary());
    assert.match(r.skipped, /gnuplot was not found/);
    assert.deepEqual(r.figures, []);
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    assert.match(html, /Plots were skipped/);
    assert.match(html, /apt-get install gnuplot-nox/);
    assert.match(await readFile(join(dir, 'summary.md'), 'utf8'), /apt-get install gnuplot-nox/);

    const dir2 = await tmp();
    const fake = join(dir2, 'bad-gnuplot');
    await writeFile(fake, '#!/bin/sh\necho "line 7: unknown terminal" >&2\nexit 1\n');
    await chmod(fake, 0o755);
    process.env.WASM_SOAK_GNUPLOT = fake;
    await assert.rejects(
      writeFormats(dir2, makeRun(), makeSummary(), { requirePlots: true }),
      (err) => err.code === 'WS_PLOTS_FAILED' && /unknown terminal/.test(err.message),
    );
    assert.match(await readFile(join(dir2, 'gnuplot-stderr.txt'), 'utf8'), /line 7: unknown terminal/);
    assert.ok(existsSync(join(dir2, 'report.html')) && existsSync(join(dir2, 'junit.xml')));
    assert.ok(!existsSync(join(dir2, 'time.png')));
  } finally {
    if (saved === undefined) delete process.env.WASM_SOAK_GNUPLOT;
    else process.env.WASM_SOAK_GNUPLOT = saved;
  }
});

test('writeJunit: one testcase per run, findings that gate the exit code fail', async () => {
  const dir = await tmp();
  const summaries = [
    makeSummary(),
    makeSummary({ findings: [LEAK] }),
    makeSummary({ status: 'failed', error: { message: 'boom & "bust"' } }),
  ];
  summaries[1].name = 'leaky';
  const result = { name: 'suite', cases: summaries.map((s) => runResult(s).cases[0]) };
  await writeJunit(join(dir, 'all.xml'), result);
  const xml = await readFile(join(dir, 'all.xml'), 'utf8');
  assert.equal(xml, renderJunit(result));
  assert.match(xml, /<testsuites name="wasm-soak" tests="3" failures="1" errors="1"/);
  assert.match(xml, /<testsuite name="suite" [^>]*timestamp="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d" hostname="[^"]+"/);
  assert.equal(xml.match(/<testcase /g).length, 3);
  assert.match(xml, /name="leaky"/);
  assert.match(xml, /message="boom &#38; &#34;bust&#34;"/);
});

// Inside the allocator (summary.sources, .allocations, .growthAttribution).
const MALLINFO = 'mallinfo (uordblks, arena, fordblks)';
function withAllocator(summary, { counting = true } = {}) {
  const stats = (median, p90, p99, total) => ({ median, p90, p99, total });
  summary.sources = {
    heapTop: { source: null, enable: 'export sbrk (clang: -Wl,--export=sbrk)' },
    allocator: { source: MALLINFO },
    stackPointer: { source: null, enable: 'export the __stack_pointer global' },
    liveBytes: counting ? 'counting pass' : MALLINFO,
    countingPass: counting
      ? { status: 'completed', instrumented: [['malloc', 'dlmalloc', 'free', 'dlfree']], error: null, note: null }
      : null,
  };
  summary.allocations = counting
    ? {
        pass: 'count',
        calls: 6000,
        instrumented: [['malloc', 'dlmalloc', 'free', 'dlfree']],
        allocs: stats(2, 3, 7, 15000),
        bytes: stats(553, 3335.2, 8226, 2500000),
        live: { start: 7808, end: 1030072, peak: 1093847 },
        timeMedianNs: 1581,
        // The timed pass's medians (the analysis's, src/analysis/timed-medians.js).
        timedMedians: { median: 1200, ops: { step: 1100, alloc_free: 1300 } },
        ops: [
          {
            name: 'step',
            calls: 3000,
            allocs: stats(3, 3, 7, 9000),
            frees: { total: 8000 },
            bytes: stats(736, 900, 8226, 2000000),
            liveLeftBehind: 1022264,
          },
          {
            name: 'alloc_free',
            calls: 3000,
            allocs: stats(2, 2, 2.5, 6000),
            frees: { total: 6000 },
            bytes: stats(112, 112, 112, 500000),
            liveLeftBehind: 0,
          },
        ],
      }
    : null;
  summary.growthAttribution = [
    { op: 'step', growthEvents: 4, grownBytes: 262144, liveLeftBehind: counting ? 1022264 : null },
    { op: 'alloc_free', growthEvents: 1, grownBytes: 65536, liveLeftBehind: counting ? 0 : null },
  ];
  return summary;
}
const BUDGET = {
  kind: 'budget',
  series: 'allocs-per-call',
  window: { from: 17, to: 18 },
  op: 'step',
  iteration: 17,
  value: 3,
  limit: 2,
  sentence: 'Call 17 (op step) made 3 allocations; the budget is 2 per call (--max-allocs-per-call).',
};
const BYTES_BUDGET = {
  kind: 'budget',
  series: 'bytes-per-call',
  window: { from: 40, to: 41 },
  op: 'alloc_free',
  iteration: 40,
  value: 8226,
  limit: 4096,
  sentence:
    'Call 40 (op alloc_free) made 8.0 KiB of allocations; the budget is 4.0 KiB per call (--max-bytes-per-call).',
};
const STACK = {
  kind: 'stack-drift',
  series: 'stack-pointer',
  window: { from: 600, to: 6000 },
  slope: { perKiloIterations: -256, low: -270, high: -240, unit: 'bytes' },
  pValue: 1e-9,
  sentence: 'The stack pointer drifts down by 256 B every 1,000 calls: something leaves frames on the shadow stack.',
};

test('inside the allocator: sources, allocations per op with both times, growth by op, budget findings', async () => {
  const dir = await tmp();
  const ops = ['step', 'alloc_free'];
  const summary = withAllocator(makeSummary({ ops, findings: [BUDGET, BYTES_BUDGET] }));
  summary.verdict = 'budget';
  const run = makeRun({ ops, live: false });
  await writeFormats(dir, run, summary, { formats: ['html', 'md', 'junit'] });
  const html = await readFile(join(dir, 'report.html'), 'utf8');
  const section = html.match(/<section id="allocator">[\s\S]*?<\/section>/)?.[0];
  assert.ok(section, 'an "Inside the allocator" section');
  assert.match(section, /<h2>Inside the allocator<\/h2>/);
  // Sources: what was found, and how to enable what is missing.
  assert.match(
    section,
    /<th>heap top<\/th><td class="missing">missing<\/td><td><span class="muted">to enable: export sbrk \(clang: -Wl,--export=sbrk\)/,
  );
  assert.match(
    section,
    /<th>allocator statistics<\/th><td class="found">found<\/td><td>mallinfo \(uordblks, arena, fordblks\)/,
  );
  assert.match(section, /<th>live bytes<\/th><td class="found">found<\/td><td>counting pass<\/td>/);
  assert.match(
    section,
    /<th>counting pass<\/th><td class="found">found<\/td><td>completed; instrumented malloc, dlmalloc, free, dlfree<\/td>/,
  );
  // Per op: calls, allocs/call median and p99, bytes/call median and p99,
  // frees, live bytes left behind, timed and counting-pass median time.
  const timedAll =
    /<td>all ops<\/td><td>6,000<\/td><td>2<\/td><td>7<\/td><td>553 B<\/td><td>8\.0 KiB<\/td><td>14,000<\/td><td>\+998\.3 KiB<\/td><td>([\d.]+) (ns|µs)<\/td><td>1\.58 µs<\/td>/;
  const all = section.match(timedAll);
  assert.ok(all, `the all-ops row in ${section}`);
  const timedNs = Number(all[1]) * (all[2] === 'µs' ? 1000 : 1);
  assert.equal(timedNs, 1200, 'the timed median the analysis handed the report');
  assert.match(
    section,
    /<td>step<\/td><td>3,000<\/td><td>3<\/td><td>7<\/td><td>736 B<\/td><td>8\.0 KiB<\/td><td>8,000<\/td><td>\+998\.3 KiB<\/td><td>[\d.]+ (ns|µs)<\/td><td>–<\/td>/,
  );
  assert.match(
    section,
    /<td>alloc_free<\/td><td>3,000<\/td><td>2<\/td><td>2\.5<\/td><td>112 B<\/td><td>112 B<\/td><td>6,000<\/td><td>0 B<\/td>/,
  );
  assert.match(section, /Median time per call: [\d.]+ (ns|µs) timed, 1\.58 µs in the counting pass/);
  // Growth attribution, the op that grew most first.
  assert.match(
    section,
    /<table class="grid" id="allocator-growth">\s*<tr><th>op<\/th><th>growth events<\/th><th>grown bytes<\/th><th>live bytes left behind<\/th><\/tr>\s*<tr><td>step<\/td><td>4<\/td><td>256\.0 KiB<\/td><td>\+998\.3 KiB<\/td><\/tr>\s*<tr><td>alloc_free<\/td><td>1<\/td><td>64\.0 KiB<\/td><td>0 B<\/td><\/tr>/,
  );
  // Budget findings render like the others, with their call and op.
  assert.match(html, /<h1>Allocation budget exceeded — /);
  assert.match(
    html,
    /made 3 allocations; the budget is 2 per call[\s\S]*?<th>call<\/th><td>iteration 17 \(op step\)<\/td>[\s\S]*?<th>value<\/th><td>3 allocations \(budget 2 allocations per call\)<\/td>/,
  );
  assert.match(
    html,
    /<th>call<\/th><td>iteration 40 \(op alloc_free\)<\/td>[\s\S]*?<th>value<\/th><td>8\.0 KiB \(budget 4\.0 KiB per call\)<\/td>/,
  );
  assert.doesNotMatch(html, /iterations 17–18/, 'a one-call window is shown as the call');

  const md = await readFile(join(dir, 'summary.md'), 'utf8');
  assert.match(md, /^## ❌ Allocation budget exceeded: fixture/);
  assert.match(
    md,
    /- \*\*budget\*\*: Call 17 \(op step\) made 3 allocations.*\n {2}<sub>call: iteration 17 \(op step\) · value: 3 allocations \(budget 2 allocations per call\)<\/sub>/,
  );
  assert.match(md, /\*\*Inside the allocator\*\*/);
  assert.match(
    md,
    /\| op \| calls \| allocs\/call median \| p99 \| bytes\/call median \| p99 \| live left behind \| time\/call timed \| counting \|/,
  );
  assert.match(
    md,
    /\| all ops \| 6,000 \| 2 \| 7 \| 553 B \| 8\.0 KiB \| \+998\.3 KiB \| [\d.]+ (ns|µs) \| 1\.58 µs \|/,
  );
  assert.match(md, /\| step \| 3,000 \| 3 \| 7 \| 736 B \| 8\.0 KiB \| \+998\.3 KiB \| [\d.]+ (ns|µs) \| – \|/);
  assert.match(md, /\| alloc\\_free \| 3,000 \| 2 \| 2\.5 \| 112 B \| 112 B \| 0 B \| [\d.]+ (ns|µs) \| – \|/);
  assert.match(md, /\| step \| 4 \| 256\.0 KiB \| \+998\.3 KiB \|/);
  assert.match(
    md,
    /<sub>Sources: allocator statistics: mallinfo \(uordblks, arena, fordblks\) · live bytes: counting pass\. Missing: heap top \(export sbrk/,
  );

  const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
  assert.match(junit, /tests="1" failures="1" errors="0"/);
  assert.equal(junit.match(/<failure /g).length, 2);
  assert.match(
    junit,
    /<failure message="Call 17 \(op step\) made 3 allocations; the budget is 2 per call \(--max-allocs-per-call\)\." type="budget">series: allocs-per-call\ncall: iteration 17 \(op step\)\nvalue: 3 allocations \(budget 2 allocations per call\)<\/failure>/,
  );
});

test('stack drift is a finding and a failure; without a counting pass the reports say how to get one', async () => {
  const dir = await tmp();
  const summary = withAllocator(makeSummary({ findings: [STACK] }), { counting: false });
  summary.sources.stackPointer = { source: '__stack_pointer (exported global)' };
  await writeFormats(dir, makeRun({ live: false }), summary, { formats: ['html', 'md', 'junit'] });
  const html = await readFile(join(dir, 'report.html'), 'utf8');
  assert.match(html, /<h1>Stack drift — /);
  assert.match(html, /<th>series<\/th><td>stack-pointer<\/td>/);
  assert.match(
    html,
    /<th>stack pointer<\/th><td class="found">found<\/td><td>__stack_pointer \(exported global\)<\/td>/,
  );
  assert.match(
    html,
    /<th>counting pass<\/th><td class="missing">missing<\/td><td><span class="muted">to enable: run with --count-allocs/,
  );
  assert.doesNotMatch(html, /id="allocator-ops"/, 'no allocation table without a counting pass');
  assert.match(html, /<tr><th>op<\/th><th>growth events<\/th><th>grown bytes<\/th><\/tr>/, 'growth without live bytes');
  assert.match(html, /Run with --count-allocs to see which ops leave live bytes behind/);
  const md = await readFile(join(dir, 'summary.md'), 'utf8');
  assert.match(md, /^## ❌ Stack drift/);
  assert.doesNotMatch(md, /Inside the allocator/);
  assert.match(md, /\| op \| growth events \| grown bytes \|\n\|---\|--:\|--:\|\n\| step \| 4 \| 256\.0 KiB \|/);
  const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
  assert.match(junit, /failures="1"/);
  assert.match(junit, /<failure message="The stack pointer drifts down[^"]*" type="stack-drift">series: stack-pointer/);
});

test('the memory figure names where live bytes and the heap come from', async () => {
  // The verdict's input: the counting pass's live bytes (its own cadence) as
  // liveBytes, the allocator's heap as heapBytes (the same object).
  const run = makeRun({ live: false });
  const at = (step, f) => {
    const iter = Float64Array.from({ length: Math.floor(6000 / step) }, (_, i) => i * step);
    return { iter, tMs: iter.map((x) => x / 10), value: iter.map(f) };
  };
  const allocatorHeap = at(50, (i) => 90000 + 20 * i),
    allocatorLive = at(50, (i) => 40000 + 5 * i);
  // The counting pass's peak live bytes within calls (metrics.livePeak, the
  // same iterations): 96 B above live, 4 KiB once.
  const liveBytes = at(3, (i) => 40000 + 5 * i);
  const livePeak = { ...liveBytes, value: liveBytes.value.map((v, k) => v + (k === 1000 ? 4096 : 96)) };
  Object.assign(run.metrics, { allocatorHeap, allocatorLive, heapBytes: allocatorHeap, liveBytes, livePeak });
  const dir = await tmp();
  await writeFormats(dir, run, withAllocator(makeSummary()), { formats: ['svg'] });
  let svg = await readFile(join(dir, 'memory.svg'), 'utf8');
  assert.match(svg, /live bytes \(counting pass\)/);
  assert.match(svg, /heap top \(mallinfo\)/);
  assert.match(svg, /heap top − live bytes/, 'the gap is shaded across cadences');
  assert.match(svg, /peak live within calls \(up to 4\.0 KiB above live\)/);
  const bandFill = /<polygon fill = 'rgb\(244, 166, 166\)'/g;
  assert.ok(svg.match(bandFill)?.length >= 2, 'the peak band is drawn, not only keyed');
  // The timed pass alone: the allocator's own live bytes, named as such
  // even when the summary says the verdicts used the counting pass.
  const raw = makeRun({ live: false });
  Object.assign(raw.metrics, { allocatorHeap, allocatorLive });
  const dir2 = await tmp();
  await writeFormats(dir2, raw, withAllocator(makeSummary()), { formats: ['svg'] });
  svg = await readFile(join(dir2, 'memory.svg'), 'utf8');
  assert.match(svg, /live bytes \(mallinfo\)/);
  assert.doesNotMatch(svg, /counting pass/);
  assert.doesNotMatch(svg, /peak live within calls/, 'no livePeak, no band');
  assert.doesNotMatch(svg, bandFill);
});

test('the memory legend keys each source present once; held free is shaded only where the gap widened', async () => {
  const at = (step, f) => {
    const iter = Float64Array.from({ length: Math.floor(6000 / step) }, (_, i) => i * step);
    return { iter, tMs: iter.map((x) => x / 10), value: iter.map(f) };
  };
  const titles = async (run, summary) => {
    const dir = await tmp();
    await writeFormats(dir, run, summary, { formats: ['svg'] });
    const svg = await readFile(join(dir, 'memory.svg'), 'utf8');
    return [...svg.matchAll(/<g id="gnuplot_plot_\d+"\s*><title>([^<]*)<\/title>/g)].map((m) => m[1]);
  };
  // No stats(): the verdicts read the heap census (analyze.js gives its live
  // bytes and heap span as liveBytes and heapBytes, the same series), and
  // the heap holds a steady 30 KiB free (noise of ±2 KiB) over a flat heap.
  const censusLive = at(50, (i) => 200_000 + ((i * 7919) % 4000)),
    censusHeap = at(50, () => 236_000),
    censusFree = at(50, (i) => 30_000 + ((i * 104729) % 2000));
  const census = makeRun({ live: false });
  Object.assign(census.metrics, { censusLive, censusHeap, censusFree, liveBytes: censusLive, heapBytes: censusHeap });
  const summary = { ...makeSummary(), sources: { liveBytes: 'heap census' } };
  const keys = await titles(census, summary);
  assert.equal(keys.filter((t) => /^live bytes/.test(t)).length, 1, keys.join(' | '));
  assert.ok(keys.includes('live bytes (heap census)') && keys.includes('heap top (heap census)'), keys.join(' | '));
  assert.ok(!keys.some((t) => /stats\(\)/.test(t)), 'no stats() without a stats()');
  assert.ok(!keys.some((t) => /held free/.test(t)), 'a steady gap is no fragmentation');
  // The same heap whose free memory widens from 30 KiB to 330 KiB after warm-up.
  const widening = makeRun({ live: false });
  const heap = at(50, (i) => 236_000 + Math.max(0, i - 600) * 50);
  Object.assign(widening.metrics, { censusLive, censusHeap: heap, liveBytes: censusLive, heapBytes: heap });
  assert.ok((await titles(widening, summary)).some((t) => /held free: fragmentation/.test(t)));
});

test('a shadow stack flat in the calls tested is one sentence, "flat at N B", not a figure', async () => {
  // 64 B taken once during the warm-up (iteration 100), then never moved.
  const run = makeRun();
  const iter = Float64Array.from({ length: 120 }, (_, i) => i * 50);
  run.metrics.stackPointer = { iter, tMs: iter.map((x) => x / 10), value: iter.map((x) => (x < 100 ? 65536 : 65472)) };
  const summary = {
    ...makeSummary(),
    sources: { stackPointer: { source: 'exported __stack_pointer global' } },
    series: [
      { name: 'stack-depth', tested: true, pattern: 'flat', window: { from: 600, to: 6000 }, start: 64, end: 64 },
    ],
  };
  const dir = await tmp();
  const r = await writeFormats(dir, run, summary, { formats: ['svg', 'html', 'md'] });
  assert.ok(!r.figures.includes('stack.svg'), r.figures.join(' '));
  const sentence =
    /flat at 64 B: the stack pointer \(exported __stack_pointer global\) stayed put 64 B below the first value read/;
  assert.match(await readFile(join(dir, 'report.html'), 'utf8'), sentence);
  assert.match(await readFile(join(dir, 'summary.md'), 'utf8'), sentence);
  // Moving in the calls tested, it is a figure again.
  run.metrics.stackPointer.value = iter.map((x) => 65536 - 16 * Math.floor(x / 1000));
  const moved = await writeFormats(await tmp(), run, summary, { formats: ['svg'] });
  assert.ok(moved.figures.includes('stack.svg'), moved.figures.join(' '));
});

test('the memory figure shows each memory that grew, with its census live bytes', async () => {
  const run = makeRun({ leak: true });
  const at = (f) => {
    const iter = Float64Array.from({ length: 120 }, (_, i) => i * 50);
    return { iter, tMs: iter.map((x) => x / 10), value: iter.map(f) };
  };
  run.header.memories = [{ label: 'memory' }, { label: 'memory#2' }, { label: 'memory#3' }];
  Object.assign(run.metrics, {
    'memory:memory': at(() => 65536),
    'memory:memory#2': at((i) => 65536 * (1 + Math.floor(i / 1000))),
    'memory:memory#3': at(() => 131072),
    'censusLive@1': at((i) => 20000 + 48 * i),
    'censusLive@2': at(() => 50000),
  });
  const dir = await tmp();
  await writeFormats(dir, run, makeSummary(), { formats: ['svg'] });
  const svg = await readFile(join(dir, 'memory.svg'), 'utf8');
  assert.match(svg, /linear memory &#39;memory#2&#39;|linear memory 'memory#2'/);
  assert.match(svg, /live bytes of (&#39;|')memory#2(&#39;|') \(heap census\)/);
  // Flat memories stay out: their sum is the figure's linear memory.
  assert.doesNotMatch(svg, /linear memory (&#39;|')memory(&#39;|')/);
  assert.doesNotMatch(svg, /memory#3/);
  // One memory: its linear memory is the figure's, drawn once.
  const single = makeRun({ leak: true });
  const dir2 = await tmp();
  await writeFormats(dir2, single, makeSummary(), { formats: ['svg'] });
  assert.doesNotMatch(await readFile(join(dir2, 'memory.svg'), 'utf8'), /linear memory (&#39;|')/);
});

const chromium = (dir, args) =>
  spawnSync(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${dir}`,
      '--enable-logging=stderr',
      '--v=0',
      ...args,
    ],
    { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 << 20 },
  );

test('report.html renders in headless Chromium', {
  skip: !existsSync(CHROMIUM) && `${CHROMIUM} is not installed`,
}, async () => {
  const dir = await tmp();
  const ops = ['step', 'grow'];
  const summary = withAllocator(makeSummary({ ops, findings: [LEAK, { ...BUDGET, op: 'grow' }] }));
  summary.allocations.ops[1].name = summary.growthAttribution[1].op = 'grow';
  await writeFormats(dir, makeRun({ ops, leak: true }), summary, { formats: ['html'] });
  const url = `file://${join(dir, 'report.html')}`;
  const shot = join(dir, 'shot.png');
  const s = chromium(await tmp(), ['--window-size=1200,1600', `--screenshot=${shot}`, url]);
  assert.equal(s.status, 0, s.stderr);
  assert.doesNotMatch(s.stderr, /CONSOLE|Uncaught|Refused to/);
  assert.ok(pngColours(await readFile(shot)) > 50, 'the screenshot is not blank');
  const d = chromium(await tmp(), ['--dump-dom', url]);
  assert.equal(d.status, 0, d.stderr);
  assert.doesNotMatch(d.stderr, /CONSOLE|Uncaught|Refused to/);
  for (const f of ['time', 'memory', 'distribution', 'ops'])
    assert.match(d.stdout, new RegExp(`<figure id="fig-${f}"><div class="plot wide"><svg`));
  assert.match(d.stdout, /<header class="banner bad" id="verdict">/);
  assert.match(d.stdout, /<section id="allocator"><h2>Inside the allocator<\/h2>/);
});
