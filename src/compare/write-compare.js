// The outputs of a comparison: compare.json (docs/compare.md), compare.md
// (renders in a GitHub step summary), compare.html (self-contained: inline
// CSS and SVG, no scripts) and the TL;DR table on the terminal. Every one
// states the confounds first, then the numbers.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatBytes, formatCount, formatNs, formatPercent, trim } from '../report/format.js';

const shown = (r) => r.arms.filter((a) => a.role !== 'boundary');
const others = (r) => shown(r).slice(1);
const differenceOf = (r, arm) => r.differences.find((d) => d.arm === arm.name);
const signed = (n, f) => (n === null ? '–' : n === 0 ? '0' : `${n > 0 ? '+' : '-'}${f(Math.abs(n))}`);
const perCall = (n) => (n === null || n === undefined ? '–' : trim(n, 4));

const levelWords = (level) => `${+(level * 100).toFixed(2)} %`;

/** The time difference in words: "×1.203 (95 %: ×1.18–×1.22), real" or "… within noise of the blocks' ±1.2 %". */
export function timeWords(d) {
  const t = d.time;
  const span = `×${t.ratio.toFixed(3)} (${levelWords(t.level)}: ×${(1 + t.low).toFixed(3)}–×${(1 + t.high).toFixed(3)})`;
  if (d.role === 'control') return `${span}, the noise floor`;
  const whose = t.floorFrom === 'control' ? "the control's" : "the blocks'";
  return `${span}, ${t.real ? 'real' : `within noise of ${whose} ±${trim(t.noiseFloor * 100, 2)} %`}`;
}

/**
 * How the time intervals were judged, in one sentence: the correction for
 * several arms (Bonferroni) and the floor a real difference clears.
 */
function intervalWords(r) {
  const i = r.intervals;
  const family =
    i.claims > 1
      ? `Bonferroni-corrected for the ${i.claims} arms compared with ${r.arms[0].name}: each interval at ${levelWords(i.armLevel)}, so that all ${i.claims} hold together at ${levelWords(i.level)}`
      : `one arm compared with ${r.arms[0].name}: its interval at ${levelWords(i.level)}`;
  const control =
    i.controlFloor === null
      ? ''
      : ` or the control's interval (±${trim(i.controlFloor * 100, 2)} %), whichever is larger`;
  return `Time intervals: ${family}. A difference is real only beyond ${i.floorSpreads} × the spread of one arm's blocks against itself (±${trim(i.spreadFloor * 100, 2)} %)${control}.`;
}

/** Rows [metric, value per shown arm…, Δ per other arm…] of the TL;DR table. */
function tldrRows(r) {
  const arms = shown(r);
  const rest = others(r);
  const row = (metric, value, delta) => [metric, ...arms.map(value), ...rest.map((a) => delta(differenceOf(r, a), a))];
  const rel = (get) => (_d, a) => {
    const base = get(arms[0]);
    return base ? formatPercent(get(a) / base - 1) : '–';
  };
  const rows = [
    row(
      'time per call (median)',
      (a) => formatNs(a.time.median),
      (d) => timeWords(d),
    ),
    row(
      'time per call (p90)',
      (a) => formatNs(a.time.p90),
      rel((a) => a.time.p90),
    ),
    row(
      'time per call (p99)',
      (a) => formatNs(a.time.p99),
      rel((a) => a.time.p99),
    ),
    row(
      'allocations per call',
      (a) => perCall(a.counts?.allocsPerCall),
      (d) => signed(d.allocsPerCall, perCall),
    ),
    row(
      'bytes allocated per call',
      (a) => perCall(a.counts?.bytesPerCall),
      (d) => signed(d.bytesPerCall, perCall),
    ),
    row(
      'live bytes at the end',
      (a) => (a.counts ? formatBytes(a.counts.liveEnd) : '–'),
      (_d, a) => (a.counts && arms[0].counts ? signed(a.counts.liveEnd - arms[0].counts.liveEnd, formatBytes) : '–'),
    ),
    row(
      'memory high-water',
      (a) => formatBytes(a.memory.highWater),
      (d) => signed(d.highWater, formatBytes),
    ),
    row(
      'growth events',
      (a) => formatCount(a.memory.growthEvents),
      (d) => signed(d.growthEvents, formatCount),
    ),
    ...[
      ['size raw', 'raw'],
      ['size gzip -9', 'gzip'],
      ['size brotli', 'brotli'],
    ].map(([metric, k]) =>
      row(
        metric,
        (a) => formatCount(a.size[k]),
        (d, a) => `${signed(d.size[k], formatCount)} (${rel((x) => x.size[k])(d, a)})`,
      ),
    ),
    row(
      'verdict',
      (a) => a.verdict,
      (d) => (d.verdict ? `${d.verdict.from} → ${d.verdict.to}` : 'same'),
    ),
  ];
  if (r.boundary) {
    rows.push(
      row(
        'boundary share of call time',
        (a) => formatPercent(r.boundary.share[a.name]).replace('+', ''),
        () => '',
      ),
    );
  }
  return rows;
}

/** The TL;DR table's header. */
function tldrHeader(r) {
  const arms = shown(r);
  const rest = others(r);
  return ['metric', ...arms.map((a) => a.name), ...rest.map((a) => (rest.length === 1 ? 'Δ' : `Δ ${a.name}`))];
}

/** Lines of the confounds, differs first. */
function confoundLines(r) {
  const lines = [];
  for (const d of r.confounds.differs) {
    lines.push(
      `differs — ${d.aspect}: ${Object.entries(d.values)
        .map(([k, v]) => `${k}: ${v}`)
        .join(' | ')}`,
    );
  }
  if (r.confounds.differs.length === 0) lines.push('no stated confound: the arms differ only in their code');
  for (const m of r.confounds.matches) lines.push(`matches — ${m.aspect}: ${m.value}`);
  return lines;
}

function armLines(r) {
  return r.arms.map(
    (a) =>
      `${a.name}${a.role === 'arm' ? '' : ` (${a.role})`}: ${a.path} — sha256 ${a.sha256}; ${formatCount(a.time.calls)} timed calls; result folder ${a.result}`,
  );
}

const outcomeLines = (r) =>
  r.regressions.length
    ? r.regressions.map((g) => `REGRESSION (${g.metric}): ${g.sentence}`)
    : [`no regression beyond the gates${r.outputs.checked ? '; checked outputs agree' : ''}`];

/** The terminal report: confounds, the TL;DR table, the outcome. */
export function terminalReport(r, outDir) {
  const header = tldrHeader(r);
  const rows = tldrRows(r);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) => String(c).padEnd(widths[i]))
      .join(' | ')
      .trimEnd();
  return [
    'stated confounds:',
    ...confoundLines(r).map((l) => `  ${l}`),
    '',
    line(header),
    widths.map((w) => '-'.repeat(w)).join('-|-'),
    ...rows.map(line),
    '',
    intervalWords(r),
    ...outcomeLines(r),
    `results: ${outDir}  (reproduce: ${r.reproduce})`,
  ].join('\n');
}

const mdCell = (s) => String(s).replace(/\|/g, '\\|');

/** compare.md. */
function markdownReport(r) {
  const header = tldrHeader(r);
  return [
    '# wasm-soak compare',
    '',
    '## Stated confounds',
    '',
    ...confoundLines(r).map((l) => `- ${mdCell(l)}`),
    '',
    '## TL;DR',
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...tldrRows(r).map((row) => `| ${row.map(mdCell).join(' | ')} |`),
    '',
    intervalWords(r),
    '',
    ...outcomeLines(r).map((l) => `**${l}**`),
    '',
    '## Design',
    '',
    `${r.design.blocks} measured blocks of ${formatCount(r.design.blockCalls)} calls per arm after one warm-up block, rounds in the order ${r.design.order}; seed ${r.design.seed}. Time ratios: geometric mean of paired block medians, block-paired bootstrap interval.`,
    '',
    ...armLines(r).map((l) => `- ${mdCell(l)}`),
    '',
    `Reproduce: \`${r.reproduce}\``,
    '',
  ].join('\n');
}

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#7f7f7f'];

/** One SVG of every arm's block medians on shared axes. */
function blockFigure(r) {
  const W = 640;
  const H = 260;
  const pad = 48;
  const all = r.arms.flatMap((a) => a.blockMedians);
  const hi = Math.max(...all) * 1.05;
  const n = r.design.blocks;
  const x = (b) => pad + ((W - 2 * pad) * b) / Math.max(1, n - 1);
  const y = (v) => H - pad - ((H - 2 * pad) * v) / hi;
  const lines = r.arms.map((a, i) => {
    const pts = a.blockMedians.map((v, b) => `${x(b).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    const ly = 16 + i * 14;
    return `<polyline fill="none" stroke="${COLORS[i % COLORS.length]}" stroke-width="2" points="${pts}"/><text x="${W - pad + 4}" y="${ly}" font-size="11" fill="${COLORS[i % COLORS.length]}">${esc(a.name)}</text>`;
  });
  const ticks = [0, 0.5, 1].map(
    (f) => `<text x="4" y="${y(hi * f).toFixed(1)}" font-size="10">${esc(formatNs(hi * f))}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W + 40}" height="${H}" role="img" aria-label="median time per call of each block, every arm on the same axes"><rect x="${pad}" y="${pad}" width="${W - 2 * pad}" height="${H - 2 * pad}" fill="none" stroke="#ccc"/>${ticks.join('')}${lines.join('')}<text x="${W / 2 - 60}" y="${H - 12}" font-size="11">measured block (round)</text></svg>`;
}

/** compare.html: self-contained. */
function htmlReport(r) {
  const header = tldrHeader(r);
  const table = `<table><tr>${header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>${tldrRows(r)
    .map((row) => `<tr>${row.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`)
    .join('')}</table>`;
  const list = (lines) => `<ul>${lines.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>wasm-soak compare</title><style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}th{background:#f4f4f4}.bad{color:#b00;font-weight:bold}.ok{color:#060;font-weight:bold}code{background:#f4f4f4;padding:2px 4px}
</style></head><body>
<h1>wasm-soak compare</h1>
<h2>Stated confounds</h2>${list(confoundLines(r))}
<h2>TL;DR</h2>${table}
<p>${esc(intervalWords(r))}</p>
${outcomeLines(r)
  .map((l) => `<p class="${r.regressions.length ? 'bad' : 'ok'}">${esc(l)}</p>`)
  .join('')}
<h2>Time per call, block by block</h2>${blockFigure(r)}
<p>Median time per call of each measured block of every arm, on the same axes. ${esc(`${r.design.blocks} blocks of ${r.design.blockCalls} calls after one warm-up block; rounds ${r.design.order}; seed ${r.design.seed}.`)}</p>
<h2>Arms</h2>${list(armLines(r))}
<h2>Reproduce</h2><p><code>${esc(r.reproduce)}</code></p>
</body></html>
`;
}

/** Writes compare.json, compare.md and compare.html into dir; returns their names. */
export function writeCompare(dir, result) {
  const files = { json: 'compare.json', md: 'compare.md', html: 'compare.html' };
  writeFileSync(join(dir, files.json), `${JSON.stringify({ ...result, outputsWritten: files }, null, 2)}\n`);
  writeFileSync(join(dir, files.md), markdownReport(result));
  writeFileSync(join(dir, files.html), htmlReport(result));
  return files;
}
