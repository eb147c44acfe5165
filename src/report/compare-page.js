// The outputs of a comparison: compare.json (docs/compare.md), compare.md
// (renders in a GitHub step summary), compare.html (self-contained: inline
// CSS and SVG, no scripts) and the TL;DR table on the terminal, from the
// comparison worded (compare-words.js withCompareSentences). Every one
// states the confounds first, then the numbers.

import { join } from 'node:path';
import { writeResultFile } from '../result-file.js';
import { confoundText, intervalWords, timeWords } from './compare-words.js';
import { escapeMarkup as esc, escapeMarkdown, markdownCode } from './escape.js';
import { formatBytes, formatCount, formatNs, formatPercent, trim } from './format.js';
import { banner, htmlPage } from './page.js';

const shown = (r) => r.arms.filter((a) => a.role !== 'boundary');
const others = (r) => shown(r).slice(1);
const differenceOf = (r, arm) => r.differences.find((d) => d.arm === arm.name);
const signed = (n, f) => (n === null ? '–' : n === 0 ? '0' : `${n > 0 ? '+' : '-'}${f(Math.abs(n))}`);
const perCall = (n) => (n === null || n === undefined ? '–' : trim(n, 4));

/**
 * The counting pass's rows [metric, value(arm), delta(d, arm)]: a value
 * from a pass that is not complete carries its coverage, and its Δ says
 * why it is not compared (counting.js).
 */
function countRows(deltaOf) {
  const marked = (a, text) => (a.counting === 'complete' || text === '–' ? text : `${text} (${a.counting})`);
  return [
    ['allocations per call', (a) => a.counts?.allocsPerCall ?? null, perCall],
    ['bytes allocated per call', (a) => a.counts?.bytesPerCall ?? null, perCall],
    ['live bytes at the end', (a) => a.counts?.liveEnd ?? null, formatBytes],
  ].map(([metric, get, f]) => [metric, (a) => marked(a, get(a) === null ? '–' : f(get(a))), deltaOf(get, f)]);
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
    ...countRows((get, f) => (d, a) => {
      if (!d.counts.comparable) return `not comparable: ${d.counts.reason}`;
      return get(a) === null || get(arms[0]) === null ? '–' : signed(get(a) - get(arms[0]), f);
    }).map(([metric, value, delta]) => row(metric, value, delta)),
    row(
      'memory high-water',
      (a) => (a.memory.highWater === null ? 'unavailable' : formatBytes(a.memory.highWater)),
      (d) => signed(d.highWater, formatBytes),
    ),
    row(
      'growth events',
      (a) => (a.memory.growthEvents === null ? 'unavailable' : formatCount(a.memory.growthEvents)),
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

/**
 * The native yardstick (src/compare/native-arm.js, worded) per native
 * arm: { arm, header, rows [op, wasm median, native median, wasm ÷ native
 * with its interval, the wasm arm's allocations per call], sentence, memory
 * }; [] without one.
 */
function yardsticks(r) {
  if (!r.native) return [];
  const ref = r.native.reference;
  return r.native.arms.map((a) => ({
    arm: a.arm,
    header: [
      'op',
      `${ref} (wasm) median`,
      `${a.arm} (native) median`,
      `${ref} ÷ ${a.arm} (95 %)`,
      `${ref} allocations per call`,
    ],
    rows: a.ops.map((o) => [
      o.op,
      formatNs(o.wasmMedian),
      formatNs(o.nativeMedian),
      o.ratio ? `×${o.ratio.ratio.toFixed(2)} (×${o.ratio.low.toFixed(2)}–×${o.ratio.high.toFixed(2)})` : '–',
      perCall(o.allocsPerCall),
    ]),
    sentence: a.sentence,
    memory: `native memory: ${a.memory}`,
  }));
}

/** The lines under a yardstick's table: its sentence and what is said of native memory. */
const yardstickNotes = (y) => [...(y.sentence ? [y.sentence] : []), y.memory];

/** A plain-text table of header and rows, columns padded. */
function textTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) => String(c).padEnd(widths[i]))
      .join(' | ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)];
}

/** The TL;DR table's header. */
function tldrHeader(r) {
  const arms = shown(r);
  const rest = others(r);
  return ['metric', ...arms.map((a) => a.name), ...rest.map((a) => (rest.length === 1 ? 'Δ' : `Δ ${a.name}`))];
}

/** Lines of the confounds in few words (compare-words.js), differs first. */
function confoundLines(r) {
  const arms = shown(r);
  const lines = r.confounds.differs.map((d) => `differs — ${confoundText(d, arms)}`);
  if (r.confounds.differs.length === 0) lines.push('no stated confound: the arms differ only in their code');
  for (const m of r.confounds.matches) lines.push(`matches — ${confoundText(m, arms)}`);
  return lines;
}

function armLines(r) {
  return r.arms.map(
    (a) =>
      `${a.name}${a.role === 'arm' ? '' : ` (${a.role})`}: ${a.path} — sha256 ${a.sha256}; ${formatCount(a.time.calls)} timed calls; result folder ${a.result}`,
  );
}

const outcomeLines = (r) => [
  ...(r.regressions.length
    ? r.regressions.map((g) => `REGRESSION (${g.metric}): ${g.sentence}`)
    : ['no regression beyond the gates']),
  // --check-outputs that found nothing says so, with what it checked.
  ...(r.outputs.checked && r.outputs.mismatches.length === 0
    ? [`outputs agree (${formatCount(r.design.callsPerArm)} calls)`]
    : []),
];

/** The terminal report: confounds, the TL;DR table, the outcome. */
export function terminalReport(r, outDir) {
  return [
    'stated confounds:',
    ...confoundLines(r).map((l) => `  ${l}`),
    '',
    ...textTable(tldrHeader(r), tldrRows(r)),
    '',
    ...yardsticks(r).flatMap((y) => [
      `native yardstick (${y.arm}):`,
      ...textTable(y.header, y.rows),
      ...yardstickNotes(y),
      '',
    ]),
    intervalWords(r),
    ...outcomeLines(r),
    `results: ${outDir}  (reproduce: ${r.reproduce})`,
  ].join('\n');
}

// Text in compare.md that is not its own Markdown (the arms' names, paths and
// producers sections, errors) escaped for Markdown (escape.js).
const mdCell = escapeMarkdown;

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
    `| ${header.map(mdCell).join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...tldrRows(r).map((row) => `| ${row.map(mdCell).join(' | ')} |`),
    '',
    mdCell(intervalWords(r)),
    '',
    ...outcomeLines(r).map((l) => `**${mdCell(l)}**`),
    '',
    ...yardsticks(r).flatMap((y) => [
      `## Native yardstick (${mdCell(y.arm)})`,
      '',
      `| ${y.header.map(mdCell).join(' | ')} |`,
      `|${y.header.map(() => '---').join('|')}|`,
      ...y.rows.map((row) => `| ${row.map(mdCell).join(' | ')} |`),
      '',
      ...yardstickNotes(y).map((l) => `${mdCell(l)}`),
      '',
    ]),
    '## Design',
    '',
    `${r.design.blocks} measured blocks of ${formatCount(r.design.blockCalls)} calls per arm after one warm-up block, rounds in the order ${mdCell(r.design.order)}; seed ${r.design.seed}. Time ratios: geometric mean of paired block medians, block-paired bootstrap interval.`,
    '',
    ...armLines(r).map((l) => `- ${mdCell(l)}`),
    '',
    `Reproduce: ${markdownCode(r.reproduce)}`,
    '',
  ].join('\n');
}

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
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W + 40}" height="${H}" viewBox="0 0 ${W + 40} ${H}" role="img" aria-label="median time per call of each block, every arm on the same axes"><rect x="${pad}" y="${pad}" width="${W - 2 * pad}" height="${H - 2 * pad}" fill="none" stroke="#ccc"/>${ticks.join('')}${lines.join('')}<text x="${W / 2 - 60}" y="${H - 12}" font-size="11">measured block (round)</text></svg>`;
}

/** Every value of the confounds in full (compare.json's), for the details below the numbers. */
function fullConfounds(r) {
  const item = (aspect, text) => `<li><strong>${esc(aspect)}</strong>: ${esc(text)}</li>`;
  return [
    ...r.confounds.differs.map((d) =>
      item(
        `${d.aspect} (differs)`,
        Object.entries(d.values)
          .map(([k, v]) => `${k}: ${v}`)
          .join(' | '),
      ),
    ),
    ...r.confounds.matches.map((m) => item(`${m.aspect} (matches)`, m.value)),
  ].join('');
}

/**
 * compare.html on the one shell (report/page.js): the outcome in the
 * banner, the TL;DR first (the confounds in few words, the table, the
 * outcome), then the figure and the details.
 */
function htmlReport(r) {
  const arms = shown(r);
  const bad = r.regressions.length > 0;
  const header = tldrHeader(r);
  const textColumns = new Set(header.map((h, i) => (h.startsWith('Δ') ? i : -1)));
  const cell = (c, i) => `<td${textColumns.has(i) ? ' class="text"' : ''}>${esc(c)}</td>`;
  const table = `<div class="scroll"><table class="grid fit"><thead><tr>${header
    .map((h, i) => `<th${textColumns.has(i) ? ' class="text"' : ''}>${esc(h)}</th>`)
    .join('')}</tr></thead><tbody>${tldrRows(r)
    .map((row) => `<tr>${row.map(cell).join('')}</tr>`)
    .join('')}</tbody></table></div>`;
  const list = (lines) => `<ul class="long">${lines.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>`;
  const outcome = outcomeLines(r);
  const design = `${r.design.blocks} blocks of ${formatCount(r.design.blockCalls)} calls per arm after one warm-up block; rounds ${r.design.order}; seed ${r.design.seed}`;
  return htmlPage({
    title: `wasm-soak compare: ${arms.map((a) => a.name).join(' vs ')}`,
    head: banner({
      tone: bad ? 'bad' : 'ok',
      title: `${bad ? 'Regression' : 'No regression'}: ${arms
        .slice(1)
        .map((a) => a.name)
        .join(', ')} against ${arms[0].name}`,
      text: outcome[0],
      sub: design,
    }),
    body: `<section id="tldr"><h2>TL;DR</h2>
<p><strong>Stated confounds:</strong> ${esc(
      r.confounds.differs.length
        ? r.confounds.differs.map((d) => confoundText(d, arms)).join('; ')
        : 'none: the arms differ only in their code',
    )}</p>
${table}
<p>${esc(intervalWords(r))}</p>
${list(outcome)}</section>
${yardsticks(r)
  .map(
    (y) =>
      `<section class="yardstick"><h2>Native yardstick (${esc(y.arm)})</h2><div class="scroll"><table class="grid fit"><thead><tr>${y.header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${y.rows
        .map((row) => `<tr>${row.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`)
        .join('')}</tbody></table></div>${yardstickNotes(y)
        .map((l) => `<p>${esc(l)}</p>`)
        .join('')}</section>`,
  )
  .join('\n')}
<section id="time"><h2>Time per call, block by block</h2><figure><div class="plot fits">${blockFigure(r)}</div>
<figcaption>Median time per call of each measured block of every arm, on the same axes. ${esc(design)}.</figcaption></figure></section>
<section id="confounds"><h2>Stated confounds</h2>${list(confoundLines(r))}
<details><summary>Every value in full</summary><ul class="long">${fullConfounds(r)}</ul></details></section>
<section id="arms"><h2>Arms</h2>${list(armLines(r))}</section>
<section id="reproduce"><h2>Reproduce</h2><pre><code>${esc(r.reproduce)}</code></pre></section>`,
    footer: 'Written by wasm-soak compare from compare.json.',
  });
}

/** Writes compare.json, compare.md and compare.html into dir; returns their names. */
export function writeCompare(dir, result) {
  const files = { json: 'compare.json', md: 'compare.md', html: 'compare.html' };
  writeResultFile(join(dir, files.json), `${JSON.stringify({ ...result, outputsWritten: files }, null, 2)}\n`);
  writeResultFile(join(dir, files.md), markdownReport(result));
  writeResultFile(join(dir, files.html), htmlReport(result));
  return files;
}
