// report.html: one self-contained page (inline CSS and SVG, no scripts, no
// network) telling the story of a run from its summary and figures.

import { baselineLines } from '../baseline/words.js';
import { esc } from './escape.js';
import { INSTALL_HINT } from './plots.js';
import { SITES_CSS, sitesSection } from './sites-html.js';
import {
  allocationRows,
  figureTitle,
  findingEvidence,
  findingFigure,
  formatAllocs,
  formatBytes,
  formatCount,
  formatMs,
  formatNs,
  formatPercent,
  growthRows,
  instrumentedText,
  leadFinding,
  medianChange,
  nextSteps,
  noteLines,
  opRows,
  orderFigures,
  partialCountText,
  rerunCommand,
  sourceRows,
  toolName,
  undecidedLines,
  verdictLine,
} from './words.js';

const CAPTIONS = {
  time:
    'Time per call. Washed out: warm-up (excluded from the trend tests); tinted: the window tested. ' +
    'Dark line: rolling median; band: middle 80 % of calls; light band: fastest and slowest call per ' +
    'bucket (every spike is kept; grey triangles mark spikes above a linear axis). Dashed: the fitted ' +
    'trend, its slope and 95 % interval above the plot, red when it is the finding.',
  memory:
    'Memory. Steps: linear memory; markers: calls during which it grew, by op. Heap top and live ' +
    'bytes when the run could see them: the shaded gap between them is memory the heap holds free, and ' +
    'it widens when the allocator fragments. JS heap and RSS use the right axis; when the JS heap is ' +
    "the finding the right axis is its own, spanning its range. Dashed red: the finding's fitted trend.",
  stack:
    'Shadow stack depth: the first stack pointer seen minus each one. It rises for good when a call ' +
    'takes stack space and never gives it back. Dashed: the fitted trend.',
  distribution:
    'Time per call early vs late after warm-up (fraction of calls at or below each ' +
    'time). A shift right or a longer tail shows a change a median can hide.',
  ops: 'Median time of each op in 60 windows over the run.',
};

const CSS = `
:root{color-scheme:light dark;--bg:#f6f7f9;--fg:#1d232b;--card:#fff;--line:#dfe3e8;--rule:#eceff2;--muted:#5b6570;--code:#f0f2f5;--ok:#1e7d3a;--bad:#b3261e;--warn:#8a5a00;--unsure:#8a5a00;--note:#fff6db;--noteline:#f0d67a}
@media (prefers-color-scheme:dark){:root{--bg:#14171b;--fg:#e2e6ea;--card:#1d2126;--line:#353b43;--rule:#2b3036;--muted:#9ba5b0;--code:#262b31;--ok:#23703a;--bad:#a8281f;--warn:#e0b05a;--unsure:#7a5200;--note:#33301c;--noteline:#6e6020}
figure svg{filter:invert(.9) hue-rotate(180deg)}}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:var(--fg);background:var(--bg)}
main,.wrap{max-width:1060px;margin:0 auto;padding:0 16px 48px}
.banner .wrap{padding-bottom:0}
.banner{padding:14px 24px;color:#fff;margin-bottom:12px}
.banner.ok{background:var(--ok)}.banner.bad{background:var(--bad)}.banner.unsure{background:var(--unsure)}
.banner h1{margin:0;font-size:24px}.banner p{margin:4px 0 0;font-size:16px}
.banner .sub{opacity:.85;font-size:14px}
section{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:12px 20px;margin:12px 0}
h2{font-size:18px;margin:4px 0 10px}
#next ol{margin:0;padding-left:22px}#next li{margin:2px 0}#next pre{margin:4px 0 6px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{padding:3px 12px 3px 0;text-align:left;vertical-align:top}
table.grid th,table.grid td{border-bottom:1px solid var(--rule);text-align:right;padding:4px 10px}
table.grid th:first-child,table.grid td:first-child{text-align:left}
.scroll{overflow-x:auto;max-width:100%}.plot.narrow{display:none}
.finding{border-left:4px solid var(--bad);padding:2px 0 2px 14px;margin:12px 0}
.finding p{margin:0 0 6px;font-weight:600}
.finding th{color:var(--muted);font-weight:normal}
figure{margin:8px 0 18px}.plot svg{display:block;width:100%;height:auto;max-height:80vh}
figcaption{color:var(--muted);font-size:13px}
pre{background:var(--code);padding:8px 10px;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}
.note{background:var(--note);border:1px solid var(--noteline);padding:4px 14px;margin:8px 0}
.muted{color:var(--muted)}
h3{font-size:15px;margin:14px 0 6px}
table.sources td.found{color:var(--ok);font-weight:600}table.sources td.missing{color:var(--warn);font-weight:600}
table.sources td{padding-bottom:6px}table.sources th{white-space:nowrap}table.grid td{white-space:nowrap}
@media (max-width:700px){body{font-size:14px}main,.wrap{padding:0 8px 32px}.banner{padding:12px 8px}.banner h1{font-size:20px}
section{padding:10px 12px}.plot{overflow-x:auto}.plot:not(.narrow) svg{min-width:760px}.plot svg{max-height:none}
.plot.wide{display:none}.plot.narrow{display:block}table.sources th{white-space:normal}}
@media print{.plot.wide{display:block}.plot.narrow{display:none}:root{--bg:#fff;--card:#fff;--fg:#000;--code:#f3f3f3}body{font-size:11pt}
.banner{print-color-adjust:exact;-webkit-print-color-adjust:exact}section{border:0;padding:0;margin:10px 0}
section,figure,.finding,table,tr,pre{break-inside:avoid}h2,h3{break-after:avoid}figure svg{filter:none}
.plot svg{max-height:none}.scroll{overflow:visible}table.grid{font-size:9pt}table.grid th,table.grid td{padding:2px 5px;white-space:normal}}
`;

// Inline SVG from gnuplot: drops the XML prolog and prefixes every id (and
// every reference to one) so several figures can share one document.
function inlineSvg(svg, prefix) {
  return svg
    .replace(/^[\s\S]*?(?=<svg\b)/, '')
    .replace(/\bid=(['"])/g, `id=$1${prefix}-`)
    .replace(/(href=['"]#)/g, `$1${prefix}-`)
    .replace(/url\(#/g, `url(#${prefix}-`)
    .replace(/<title>/, `<title id="${prefix}-title">`)
    .replace(/<desc>/, `<desc id="${prefix}-desc">`)
    .replace(/<svg\b/, `<svg role="img" aria-labelledby="${prefix}-title" aria-describedby="${prefix}-desc"`);
}

function table(rows) {
  return `<div class="scroll"><table>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table></div>`;
}

function banner(s) {
  const v = verdictLine(s);
  const sub = [
    `${formatCount(s.iterations?.completed ?? s.samples?.calls)} calls`,
    Number.isFinite(s.durationMs) ? formatMs(s.durationMs) : null,
    s.status,
  ]
    .filter(Boolean)
    .join(' · ');
  const tone = v.ok ? 'ok' : v.unsure ? 'unsure' : 'bad';
  return `<header class="banner ${tone}" id="verdict"><div class="wrap">
<h1>${esc(v.title)} — ${esc(figureTitle(s))}</h1><p>${esc(v.text)}</p><p class="sub">${esc(sub)}</p></div></header>`;
}

function errorSection(s) {
  if (!s.error) return '';
  const e = s.error;
  return `<section id="error"><h2>Error</h2>${table([
    ['message', e.message],
    ['phase', e.phase ?? '–'],
    ['iteration', e.iteration != null ? formatCount(e.iteration) : '–'],
    ['op', e.op ?? '–'],
  ])}
${e.stack ? `<pre>${esc(e.stack)}</pre>` : ''}</section>`;
}

// What the data left undecided, after the findings.
function undecidedBlock(s) {
  const lines = undecidedLines(s);
  if (!lines.length) return '';
  return `<div class="note" id="inconclusive"><p><strong>Inconclusive:</strong></p><ul>${lines
    .map((l) => `<li>${esc(l)}</li>`)
    .join('')}</ul></div>`;
}

// What the run shows that is no finding and the banner does not quote.
function notesBlock(s) {
  const lines = noteLines(s);
  if (!lines.length) return '';
  return `<div class="note" id="notes"><p><strong>Notes (no finding):</strong></p><ul>${lines
    .map((l) => `<li>${esc(l)}</li>`)
    .join('')}</ul></div>`;
}

function findingsSection(s) {
  const list = s.findings ?? [];
  if (!list.length) {
    const flat = s.verdict !== 'inconclusive' && !s.notes?.length;
    return s.verdict
      ? `<section id="findings"><h2>Findings</h2><p>None${flat ? ': every tested series stayed flat after warm-up' : ''}.</p>${undecidedBlock(s)}${notesBlock(s)}</section>`
      : '';
  }
  return `<section id="findings"><h2>Findings</h2>${undecidedBlock(s)}${notesBlock(s)}${list
    .map(
      (f) => `<div class="finding">
<p>${esc(f.sentence)}</p>${table(findingEvidence(f))}</div>`,
    )
    .join('')}</section>`;
}

// A figure, with its narrow-screen render when there is one (CSS shows one).
function figureHtml(f) {
  const narrow = f.narrow ? `<div class="plot narrow">${inlineSvg(f.narrow, `fig-${f.name}-n`)}</div>` : '';
  return `<figure id="fig-${esc(f.name)}"><div class="plot${narrow ? ' wide' : ''}">${inlineSvg(f.svg, `fig-${f.name}`)}</div>${narrow}
<figcaption>${esc(CAPTIONS[f.name] ?? '')}</figcaption></figure>`;
}

// What to do next, under the verdict: drawn from what the run knew.
function nextSection(s) {
  const steps = nextSteps(s);
  return `<section id="next" aria-label="Next steps"><h2>Next step</h2><ol>${steps
    .map((x) => `<li>${esc(x.text)}${x.command ? `<pre><code>${esc(x.command)}</code></pre>` : ''}</li>`)
    .join('')}</ol></section>`;
}

// The figure carrying the verdict's finding, right under the next step.
function leadSection(s, figures) {
  const lead = figures.find((f) => f.name === findingFigure(leadFinding(s)));
  return lead ? `<section id="evidence" aria-label="The finding's figure">${figureHtml(lead)}</section>` : '';
}

function figuresSection(s, figures, skipped) {
  const note = skipped
    ? `<div class="note" id="plots-skipped"><p><strong>Plots were skipped:</strong> ${esc(skipped)}.</p>
<p>Install gnuplot with <code>${esc(INSTALL_HINT)}</code>, then run <code>wasm-soak report DIR</code> on this result folder to draw them.</p></div>`
    : '';
  const lead = findingFigure(leadFinding(s));
  const rest = figures.filter((f) => f.name !== lead);
  if (!note && !rest.length) return '';
  return `<section id="figures"><h2>${lead && rest.length < figures.length ? 'More figures' : 'Figures'}</h2>${note}${rest.map(figureHtml).join('\n')}</section>`;
}

function opsSection(s) {
  const rows = opRows(s);
  if (!rows.length) return '';
  const cells = (w) => ['median', 'p90', 'p99'].map((k) => `<td>${esc(formatNs(w?.[k]))}</td>`).join('');
  const early = s.time?.early,
    late = s.time?.late;
  const windows =
    early && late
      ? `<p class="muted">Early: iterations ${formatCount(early.from)}–${formatCount(early.to)}; late: ${formatCount(late.from)}–${formatCount(late.to)}. Times include the harness's own cost per call (about 60 ns on the reference machine).</p>`
      : '';
  return `<section id="ops"><h2>Time per op</h2><div class="scroll" role="region" aria-label="Time per op" tabindex="0"><table class="grid">
<tr><th>op</th><th>calls</th><th>threw</th><th>early median</th><th>p90</th><th>p99</th><th>late median</th><th>p90</th><th>p99</th><th>median change</th></tr>
${rows.map((r) => `<tr><td>${esc(r.name)}</td><td>${esc(formatCount(r.count))}</td><td>${r.threw == null ? '' : esc(formatCount(r.threw))}</td>${cells(r.time?.early)}${cells(r.time?.late)}<td>${esc(formatPercent(medianChange(r.time)))}</td></tr>`).join('\n')}
</table></div>${windows}</section>`;
}

const signed = (b) => (Number.isFinite(b) && b > 0 ? `+${formatBytes(b)}` : formatBytes(b));

// Inside the allocator: which sources the run found (and what would enable
// the rest), the counting pass's allocations per op, and which ops grew
// memory or left live bytes behind. timed: the timed pass's medians.
function allocatorSection(s, timed) {
  const sources = sourceRows(s),
    allocs = allocationRows(s, timed),
    growth = growthRows(s);
  if (!sources.length && !allocs.length && !growth.length) return '';
  const parts = ['<section id="allocator"><h2>Inside the allocator</h2>'];
  if (sources.length) {
    parts.push(`<h3>Sources</h3><div class="scroll"><table class="sources" id="allocator-sources">
${sources
  .map(
    (r) =>
      `<tr><th>${esc(r.what)}</th><td class="${r.found ? 'found' : 'missing'}">${r.found ? 'found' : 'missing'}</td><td>${
        r.source != null ? esc(r.source) : ''
      }${r.enable ? `${r.source != null ? '<br>' : ''}<span class="muted">${r.found ? '' : 'to enable: '}${esc(r.enable)}</span>` : ''}</td></tr>`,
  )
  .join('\n')}
</table></div>`);
  }
  if (allocs.length) {
    const a = s.allocations;
    const ns = (v) => (v == null ? '–' : formatNs(v));
    const time = (r) => `<td>${esc(ns(r.timedMedianNs))}</td><td>${esc(ns(r.countMedianNs))}</td>`;
    parts.push(`<h3>Allocations per call (counting pass)</h3><div class="scroll" role="region" aria-label="Allocations per call" tabindex="0"><table class="grid" id="allocator-ops">
<tr><th>op</th><th>calls</th><th>allocs/call median</th><th>p99</th><th>bytes/call median</th><th>p99</th><th>frees</th><th>live bytes left behind</th><th>time/call timed</th><th>counting pass</th></tr>
${allocs.map((r) => `<tr><td>${esc(r.name)}</td><td>${esc(formatCount(r.calls))}</td><td>${esc(formatAllocs(r.allocs.median))}</td><td>${esc(formatAllocs(r.allocs.p99))}</td><td>${esc(formatBytes(r.bytes.median))}</td><td>${esc(formatBytes(r.bytes.p99))}</td><td>${esc(formatCount(r.frees))}</td><td>${esc(r.liveLeftBehind == null ? '–' : signed(r.liveLeftBehind))}</td>${time(r)}</tr>`).join('\n')}
</table></div><p class="muted">${a.partial ? `${esc(partialCountText(a))} ` : ''}A separate pass with the same seed and call sequence counted every call into the allocator (instrumented: ${esc(instrumentedText(a.instrumented))}); the timed pass stays uninstrumented, so its times are the ones the trend tests judge. Median time per call: ${esc(formatNs(timed?.median ?? NaN))} timed, ${esc(formatNs(a.timeMedianNs ?? NaN))} in the counting pass. Live bytes ${esc(formatBytes(a.live?.start))} after the first call, ${esc(formatBytes(a.live?.end))} at the end, peak ${esc(formatBytes(a.live?.peak))}; ${esc(formatCount(a.allocs?.total))} allocations of ${esc(formatBytes(a.bytes?.total))} in all.</p>`);
  }
  if (growth.length) {
    const live = growth.some((g) => g.liveLeftBehind != null);
    parts.push(`<h3>Memory growth by op</h3><div class="scroll" role="region" aria-label="Memory growth by op" tabindex="0"><table class="grid" id="allocator-growth">
<tr><th>op</th><th>growth events</th><th>grown bytes</th>${live ? '<th>live bytes left behind</th>' : ''}</tr>
${growth.map((g) => `<tr><td>${esc(g.op)}</td><td>${esc(formatCount(g.growthEvents))}</td><td>${esc(formatBytes(g.grownBytes))}</td>${live ? `<td>${esc(g.liveLeftBehind == null ? '–' : signed(g.liveLeftBehind))}</td>` : ''}</tr>`).join('\n')}
</table></div><p class="muted">Growth events: calls of the timed pass during which linear memory grew, and by how much.${live ? " Live bytes left behind: the change of live bytes across the op's calls in the counting pass (negative when it frees what others allocated)." : ' Run with --count-allocs to see which ops leave live bytes behind.'}</p>`);
  }
  parts.push('</section>');
  return parts.join('');
}

function memorySection(s) {
  const m = s.memory;
  if (!m) return '';
  return `<section id="memory"><h2>Memory</h2>${table([
    [
      'linear memory',
      `${formatBytes(m.start)} at start, ${formatBytes(m.afterWarmup)} after warm-up, ${formatBytes(m.end)} at the end (max ${formatBytes(m.max)})`,
    ],
    ['growth events', formatCount(m.growthEvents)],
    [
      'start-up growth',
      s.warmup?.startupGrowthBytes != null
        ? `${formatBytes(s.warmup.startupGrowthBytes)} during warm-up (a start-up cost, never a finding)`
        : '–',
    ],
    ['declared maximum', m.declaredMaximum != null ? formatBytes(m.declaredMaximum) : 'none'],
  ])}</section>`;
}

function runSection(s) {
  const env = s.env ?? {},
    mod = s.target?.module;
  const w = s.warmup;
  return `<section id="reproduce"><h2>Reproduce</h2><pre><code>${esc(rerunCommand(s))}</code></pre></section>
<section id="environment"><h2>Run and environment</h2>${table([
    ['status', `${s.status ?? '–'} (exit code ${s.exitCode ?? '–'})`],
    [
      'iterations',
      `${formatCount(s.iterations?.completed)} ${s.iterations?.requested == null ? 'until --duration ran out' : `of ${formatCount(s.iterations.requested)} requested`}`,
    ],
    ['warm-up', w ? `${formatCount(w.iterations)} iterations (${w.method})` : '–'],
    [
      'samples',
      `${formatCount(s.samples?.calls)} calls, ${formatCount(s.samples?.metrics)} metric samples, ${formatCount(s.samples?.backPressureWaits)} back-pressure waits, ${formatCount(s.samples?.tornBytes)} torn bytes`,
    ],
    ['target', `${s.target?.kind ?? ''} ${s.target?.path ?? ''}`.trim()],
    [
      'module',
      mod ? `${mod.path} — ${formatBytes(mod.size)} (${formatCount(mod.size)} bytes), SHA-256 ${mod.sha256}` : '–',
    ],
    ['Node', env.node],
    ['V8', env.v8],
    ['CPU', `${env.cpu ?? '–'} (${env.cpus ?? '?'} cores)`],
    ['platform', [env.platform, env.arch, env.os ? `(${env.os})` : null].filter(Boolean).join(' ')],
  ])}</section>`;
}

// The run against its baseline (--baseline), or nothing.
function baselineSection(s) {
  if (!s.baseline) return '';
  const items = baselineLines(s.baseline).map((l) => `<li>${esc(l)}</li>`);
  return `<section id="baseline"><h2>Against the baseline</h2><ul>${items.join('')}</ul></section>`;
}

// Renders the page. figures: [{ name, svg }] with gnuplot's SVG text;
// skipped: null or why plots are missing; timed: the timed pass's median
// time per call ({ median, ops: { name: median } }, from report.js) or null.
export function renderHtml(summary, { figures = [], skipped = null, timed = null } = {}) {
  const s = summary;
  const byName = new Map(figures.map((f) => [f.name, f]));
  const ordered = orderFigures(s, [...byName.keys()]).map((name) => byName.get(name));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>wasm-soak: ${esc(s.verdict ?? s.status)} — ${esc(figureTitle(s))}</title>
<style>${CSS}${SITES_CSS}</style></head>
<body>${banner(s)}<main>
${nextSection(s)}${leadSection(s, ordered)}${errorSection(s)}${findingsSection(s)}${baselineSection(s)}${figuresSection(s, ordered, skipped)}${opsSection(s)}${allocatorSection(s, timed)}${sitesSection(s)}${memorySection(s)}${runSection(s)}
<p class="muted">Written by ${esc(toolName(s))} from summary.json (schema ${esc(s.version ?? '?')}).</p>
</main></body></html>
`;
}
