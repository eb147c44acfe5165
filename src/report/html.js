// report.html: one self-contained page (inline CSS and SVG, no scripts, no
// network) telling the story of a run from its summary and figures.

import { INSTALL_HINT } from './plots.js';
import {
  allocationRows,
  figureTitle,
  findingEvidence,
  formatAllocs,
  formatBytes,
  formatCount,
  formatMs,
  formatNs,
  formatPercent,
  growthRows,
  instrumentedText,
  medianChange,
  opRows,
  reproduceCommand,
  sourceRows,
  toolName,
  verdictLine,
} from './words.js';

const CAPTIONS = {
  time:
    'Time per call. Washed out: warm-up (excluded from the trend tests). Dark line: rolling ' +
    'median; band: middle 80 % of calls; light band: fastest and slowest call per bucket (every ' +
    'spike is kept; red triangles mark spikes above a linear axis). Dashed: the fitted trend, ' +
    'red when it is a finding.',
  memory:
    'Memory. Steps: linear memory; markers: calls during which it grew, by op. Heap top and ' +
    'live bytes when the scenario reports them: the shaded gap between them is memory the heap ' +
    'holds free, and it widens when the allocator fragments. JS heap and RSS use the right axis.',
  distribution:
    'Time per call early vs late after warm-up (fraction of calls at or below each ' +
    'time). A shift right or a longer tail shows a change a median can hide.',
  ops: 'Median time of each op in 60 windows over the run.',
};

const CSS = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d232b;background:#f6f7f9}
main,.wrap{max-width:1060px;margin:0 auto;padding:0 16px 48px}
.banner .wrap{padding-bottom:0}
.banner{padding:18px 24px;color:#fff;margin-bottom:20px}
.banner.ok{background:#1e7d3a}.banner.bad{background:#b3261e}
.banner h1{margin:0;font-size:26px}.banner p{margin:4px 0 0;font-size:17px}
.banner .sub{opacity:.85;font-size:14px}
section{background:#fff;border:1px solid #dfe3e8;border-radius:6px;padding:14px 20px;margin:16px 0}
h2{font-size:18px;margin:4px 0 10px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{padding:3px 12px 3px 0;text-align:left;vertical-align:top}
table.grid th,table.grid td{border-bottom:1px solid #eceff2;text-align:right;padding:4px 10px}
table.grid th:first-child,table.grid td:first-child{text-align:left}
.finding{border-left:4px solid #b3261e;padding:2px 0 2px 14px;margin:12px 0}
.finding p{margin:0 0 6px;font-weight:600}
.finding th{color:#5b6570;font-weight:normal}
figure{margin:12px 0 22px}figure svg{display:block;width:100%;height:auto}
figcaption{color:#5b6570;font-size:13px}
pre{background:#f0f2f5;padding:10px;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.note{background:#fff6db;border:1px solid #f0d67a;padding:4px 14px;margin:8px 0}
.muted{color:#5b6570}
h3{font-size:15px;margin:14px 0 6px}
table.sources td.found{color:#1e7d3a;font-weight:600}table.sources td.missing{color:#8a5a00;font-weight:600}
table.sources td{padding-bottom:6px}table.sources th{white-space:nowrap}table.grid td{white-space:nowrap}
`;

const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// Inline SVG from gnuplot: drops the XML prolog and prefixes every id (and
// every reference to one) so several figures can share one document.
function inlineSvg(svg, prefix) {
  return svg
    .replace(/^[\s\S]*?(?=<svg\b)/, '')
    .replace(/\bid=(['"])/g, `id=$1${prefix}-`)
    .replace(/(href=['"]#)/g, `$1${prefix}-`)
    .replace(/url\(#/g, `url(#${prefix}-`)
    .replace(/<svg\b/, `<svg role="img" aria-label="${esc(prefix)}"`);
}

function table(rows) {
  return `<table>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>`;
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
  return `<header class="banner ${v.ok ? 'ok' : 'bad'}" id="verdict"><div class="wrap">
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

function findingsSection(s) {
  const list = s.findings ?? [];
  if (!list.length) {
    return s.verdict
      ? '<section id="findings"><h2>Findings</h2><p>None: every tested series stayed flat after warm-up.</p></section>'
      : '';
  }
  return `<section id="findings"><h2>Findings</h2>${list
    .map(
      (f) => `<div class="finding">
<p>${esc(f.sentence)}</p>${table(findingEvidence(f))}</div>`,
    )
    .join('')}</section>`;
}

function figuresSection(figures, skipped) {
  const note = skipped
    ? `<div class="note" id="plots-skipped"><p><strong>Plots were skipped:</strong> ${esc(skipped)}.</p>
<p>Install gnuplot with <code>${esc(INSTALL_HINT)}</code>, then run <code>wasm-soak report DIR</code> on this result folder to draw them.</p></div>`
    : '';
  const body = figures
    .map(
      (f) => `<figure id="fig-${esc(f.name)}">${inlineSvg(f.svg, `fig-${f.name}`)}
<figcaption>${esc(CAPTIONS[f.name] ?? '')}</figcaption></figure>`,
    )
    .join('\n');
  return `<section id="figures"><h2>Figures</h2>${note}${body}</section>`;
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
  return `<section id="ops"><h2>Time per op</h2><table class="grid">
<tr><th>op</th><th>calls</th><th>threw</th><th>early median</th><th>p90</th><th>p99</th><th>late median</th><th>p90</th><th>p99</th><th>median change</th></tr>
${rows.map((r) => `<tr><td>${esc(r.name)}</td><td>${esc(formatCount(r.count))}</td><td>${r.threw == null ? '' : esc(formatCount(r.threw))}</td>${cells(r.time?.early)}${cells(r.time?.late)}<td>${esc(formatPercent(medianChange(r.time)))}</td></tr>`).join('\n')}
</table>${windows}</section>`;
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
    parts.push(`<h3>Sources</h3><table class="sources" id="allocator-sources">
${sources
  .map(
    (r) =>
      `<tr><th>${esc(r.what)}</th><td class="${r.found ? 'found' : 'missing'}">${r.found ? 'found' : 'missing'}</td><td>${
        r.source != null ? esc(r.source) : ''
      }${r.enable ? `${r.source != null ? '<br>' : ''}<span class="muted">${r.found ? '' : 'to enable: '}${esc(r.enable)}</span>` : ''}</td></tr>`,
  )
  .join('\n')}
</table>`);
  }
  if (allocs.length) {
    const a = s.allocations;
    const ns = (v) => (v == null ? '–' : formatNs(v));
    const time = (r) => `<td>${esc(ns(r.timedMedianNs))}</td><td>${esc(ns(r.countMedianNs))}</td>`;
    parts.push(`<h3>Allocations per call (counting pass)</h3><table class="grid" id="allocator-ops">
<tr><th>op</th><th>calls</th><th>allocs/call median</th><th>p99</th><th>bytes/call median</th><th>p99</th><th>frees</th><th>live bytes left behind</th><th>time/call timed</th><th>counting pass</th></tr>
${allocs.map((r) => `<tr><td>${esc(r.name)}</td><td>${esc(formatCount(r.calls))}</td><td>${esc(formatAllocs(r.allocs.median))}</td><td>${esc(formatAllocs(r.allocs.p99))}</td><td>${esc(formatBytes(r.bytes.median))}</td><td>${esc(formatBytes(r.bytes.p99))}</td><td>${esc(formatCount(r.frees))}</td><td>${esc(r.liveLeftBehind == null ? '–' : signed(r.liveLeftBehind))}</td>${time(r)}</tr>`).join('\n')}
</table><p class="muted">A separate pass with the same seed and call sequence counted every call into the allocator (instrumented: ${esc(instrumentedText(a.instrumented))}); the timed pass stays uninstrumented, so its times are the ones the trend tests judge. Median time per call: ${esc(formatNs(timed?.median ?? NaN))} timed, ${esc(formatNs(a.timeMedianNs ?? NaN))} in the counting pass. Live bytes ${esc(formatBytes(a.live?.start))} after the first call, ${esc(formatBytes(a.live?.end))} at the end, peak ${esc(formatBytes(a.live?.peak))}; ${esc(formatCount(a.allocs?.total))} allocations of ${esc(formatBytes(a.bytes?.total))} in all.</p>`);
  }
  if (growth.length) {
    const live = growth.some((g) => g.liveLeftBehind != null);
    parts.push(`<h3>Memory growth by op</h3><table class="grid" id="allocator-growth">
<tr><th>op</th><th>growth events</th><th>grown bytes</th>${live ? '<th>live bytes left behind</th>' : ''}</tr>
${growth.map((g) => `<tr><td>${esc(g.op)}</td><td>${esc(formatCount(g.growthEvents))}</td><td>${esc(formatBytes(g.grownBytes))}</td>${live ? `<td>${esc(g.liveLeftBehind == null ? '–' : signed(g.liveLeftBehind))}</td>` : ''}</tr>`).join('\n')}
</table><p class="muted">Growth events: calls of the timed pass during which linear memory grew, and by how much.${live ? " Live bytes left behind: the change of live bytes across the op's calls in the counting pass (negative when it frees what others allocated)." : ' Run with --count-allocs to see which ops leave live bytes behind.'}</p>`);
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
  return `<section id="reproduce"><h2>Reproduce</h2><pre><code>${esc(reproduceCommand(s))}</code></pre></section>
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

// Renders the page. figures: [{ name, svg }] with gnuplot's SVG text;
// skipped: null or why plots are missing; timed: the timed pass's median
// time per call ({ median, ops: { name: median } }, from report.js) or null.
export function renderHtml(summary, { figures = [], skipped = null, timed = null } = {}) {
  const s = summary;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>wasm-soak: ${esc(s.verdict ?? s.status)} — ${esc(figureTitle(s))}</title>
<style>${CSS}</style></head>
<body>${banner(s)}<main>
${errorSection(s)}${findingsSection(s)}${figuresSection(figures, skipped)}${opsSection(s)}${allocatorSection(s, timed)}${memorySection(s)}${runSection(s)}
<p class="muted">Written by ${esc(toolName(s))} from summary.json (schema ${esc(s.version ?? '?')}).</p>
</main></body></html>
`;
}
