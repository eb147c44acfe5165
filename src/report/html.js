// report.html: one self-contained page (inline CSS and SVG, no scripts, no
// network) telling the story of a run from its summary and figures.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeResultFile } from '../result-file.js';
import { baselineLines } from './baseline-words.js';
import { BLOCKS_CSS, blocksTable } from './blocks-html.js';
import { escapeMarkup as esc } from './escape.js';
import { formatAllocs, formatBytes, formatCount, formatMs, formatNs, formatPercent } from './format.js';
import { fullFrameNames } from './frame-words.js';
import { figureTitle, findingFigure, leadFinding, orderedFindings, orderFigures, stackFlatText } from './lead.js';
import { nextSteps, rerunCommand } from './next-steps.js';
import { objectRows, objectsNote } from './objects-rows.js';
import { htmlPage, banner as pageBanner } from './page.js';
import { INSTALL_HINT } from './plots.js';
import { earlyStopWords } from './progress-words.js';
import { proseHtml } from './prose-html.js';
import { SITES_CSS, sitesSection } from './sites-html.js';
import { FRAMES_HEADING, targetFrames } from './stack.js';
import {
  allocationRows,
  findingEvidence,
  growthRows,
  instantiatedModules,
  instrumentedText,
  medianChange,
  modulesText,
  opRows,
  partialCountText,
  sourceRows,
} from './tables.js';
import { TIME_SPLIT_CAPTION, timeSplitSection } from './time-split-html.js';
import { noteLines, toolName, undecidedLines, verdictLine } from './words.js';

const CAPTIONS = {
  time:
    'Time per call. Washed out: warm-up (excluded from the trend tests); tinted: the window tested. ' +
    'Dark line: rolling median; band: middle 80 % of calls; light band: fastest and slowest call per ' +
    'bucket (every spike is kept; grey triangles mark spikes above a linear axis). Dashed: the fitted ' +
    'trend, its slope and 95 % interval above the plot, red when it is the finding.',
  memory:
    'Memory. Steps: linear memory; markers: calls during which it grew, by op. Heap top and live ' +
    'bytes when the run could see them, keyed by their source; shaded between them: the free memory the ' +
    'heap holds beyond its early level, which grows when the allocator fragments. JS heap and RSS use the right axis; when the JS heap is ' +
    "the finding the right axis is its own, spanning its range. Dashed red: the finding's fitted trend.",
  stack:
    'Shadow stack depth: the first stack pointer seen minus each one. It rises for good when a call ' +
    'takes stack space and never gives it back. Dashed: the fitted trend.',
  distribution:
    'Time per call early vs late after warm-up (fraction of calls at or below each ' +
    'time). A shift right or a longer tail shows a change a median can hide.',
  ops: 'Median time of each op in 60 windows over the run.',
  'time-split': TIME_SPLIT_CAPTION,
};

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

/** The full names of the frames a finding's sentence shortens (the growing sites'), for titles. */
const titlesOf = (s) => fullFrameNames(s.sites?.growing);

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
  return pageBanner({ tone, title: `${v.title} — ${figureTitle(s)}`, textHtml: proseHtml(v.text, titlesOf(s)), sub });
}

// The target's innermost frames, before the whole stack.
function framesBlock(e) {
  const frames = targetFrames(e);
  if (!frames.length) return '';
  return `<div id="error-frames"><p>${esc(FRAMES_HEADING)}:</p><pre>${esc(frames.join('\n'))}</pre></div>`;
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
${framesBlock(e)}${e.stack ? `<pre>${esc(e.stack)}</pre>` : ''}</section>`;
}

// What the data left undecided, after the findings.
function undecidedBlock(s) {
  const lines = undecidedLines(s);
  if (!lines.length) return '';
  return `<div class="note" id="inconclusive"><p><strong>Inconclusive:</strong></p><ul>${lines
    .map((l) => `<li>${proseHtml(l)}</li>`)
    .join('')}</ul></div>`;
}

// What the run shows that is no finding and the banner does not quote.
function notesBlock(s) {
  const lines = noteLines(s);
  if (!lines.length) return '';
  return `<div class="note" id="notes"><p><strong>Notes (no finding):</strong></p><ul>${lines
    .map((l) => `<li>${proseHtml(l)}</li>`)
    .join('')}</ul></div>`;
}

function findingsSection(s) {
  const list = orderedFindings(s);
  if (!list.length) {
    // A step after warm-up (a plateau: no finding) did not stay flat.
    const stepped = s.series?.some((x) => x.name !== 'time' && (x.pattern === 'step' || x.pattern === 'sustained'));
    const flat = s.verdict !== 'inconclusive' && !s.notes?.length && !stepped;
    return s.verdict
      ? `<section id="findings"><h2>Findings</h2><p>None${flat ? ': every tested series stayed flat after warm-up' : ''}.</p>${undecidedBlock(s)}${notesBlock(s)}</section>`
      : '';
  }
  // The findings first (the verdict's own leads), then what stayed undecided and the notes.
  return `<section id="findings"><h2>Findings</h2>${list
    .map(
      (f) => `<div class="finding">
<p>${proseHtml(f.sentence, titlesOf(s))}</p>${table(findingEvidence(f))}${blocksTable(f)}</div>`,
    )
    .join('')}${undecidedBlock(s)}${notesBlock(s)}</section>`;
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
    .map((x) => `<li>${proseHtml(x.text)}${x.command ? `<pre><code>${esc(x.command)}</code></pre>` : ''}</li>`)
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
// memory or left live bytes behind; the timed pass's medians beside the counting pass's.
function allocatorSection(s) {
  const sources = sourceRows(s),
    allocs = allocationRows(s),
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
</table></div><p class="muted">${a.partial ? `${esc(partialCountText(a))} ` : ''}A separate pass with the same seed and call sequence counted every call into the allocator (instrumented: ${esc(instrumentedText(a.instrumented))}); the timed pass stays uninstrumented, so its times are the ones the trend tests judge. Median time per call: ${esc(formatNs(a.timedMedians?.median ?? NaN))} timed, ${esc(formatNs(a.timeMedianNs ?? NaN))} in the counting pass. Live bytes ${esc(formatBytes(a.live?.start))} after the first call, ${esc(formatBytes(a.live?.end))} at the end, peak ${esc(formatBytes(a.live?.peak))}; ${esc(formatCount(a.allocs?.total))} allocations of ${esc(formatBytes(a.bytes?.total))} in all.</p>`);
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

// The glue's objects by class (summary.objects): what made them and what freed them.
function objectsSection(s) {
  const rows = objectRows(s);
  if (!rows.length) return '';
  const n = (v) => `<td>${esc(formatCount(v))}</td>`;
  return `<section id="objects"><h2>Objects by class</h2><div class="scroll" role="region" aria-label="Objects by class" tabindex="0"><table class="grid" id="objects-table">
<tr><th>class</th><th>made</th><th>freed by the application</th><th>reclaimed by the GC</th><th>collected, no free</th><th>still held</th><th>op</th><th>freed by</th></tr>
${rows.map((r) => `<tr><td>${esc(r.name)}</td>${n(r.made)}${n(r.freed)}${n(r.reclaimed)}${n(r.collected)}${n(r.held)}<td>${r.op === null ? '–' : esc(r.op)}</td><td>${esc(r.freedBy)}</td></tr>`).join('\n')}
</table></div><p class="muted">${proseHtml(objectsNote(s, formatBytes))}</p></section>`;
}

function memorySection(s, figures) {
  const m = s.memory;
  if (!m) return '';
  const stack = stackFlatText(s, figures);
  return `<section id="memory"><h2>Memory</h2>${table([
    [
      'linear memory',
      `${formatBytes(m.start)} at start, ${formatBytes(m.afterWarmup)} after warm-up, ${formatBytes(m.end)} at the end (max ${formatBytes(m.max)})`,
    ],
    ['growth events', formatCount(m.growthEvents)],
    [
      'start-up growth',
      s.warmup?.startupGrowthBytes == null
        ? '–'
        : s.findings?.some((f) => f.kind === 'unfreed-objects')
          ? `${formatBytes(s.warmup.startupGrowthBytes)} during warm-up (garbage awaiting the collector: see the finding)`
          : `${formatBytes(s.warmup.startupGrowthBytes)} during warm-up (a start-up cost, never a finding)`,
    ],
    ['declared maximum', m.declaredMaximum != null ? formatBytes(m.declaredMaximum) : 'none'],
    ...(stack ? [['shadow stack', stack]] : []),
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
      `${formatCount(s.iterations?.completed)} ${s.iterations?.requested == null ? 'until --duration ran out' : `of ${formatCount(s.iterations.requested)} requested`}${s.earlyStop ? `; ended early: ${earlyStopWords(s.earlyStop)}` : ''}`,
    ],
    ['warm-up', w ? `${formatCount(w.iterations)} iterations (${w.method})` : '–'],
    [
      'samples',
      `${formatCount(s.samples?.calls)} calls, ${formatCount(s.samples?.metrics)} metric samples, ${formatCount(s.samples?.backPressureWaits)} back-pressure waits, ${formatCount(s.samples?.tornBytes)} torn bytes`,
    ],
    ['target', `${s.target?.kind ?? ''} ${s.target?.path ?? ''}`.trim()],
    // A raw target's module, else the modules the scenario instantiated.
    mod
      ? ['module', `${mod.path} — ${formatBytes(mod.size)} (${formatCount(mod.size)} bytes), SHA-256 ${mod.sha256}`]
      : [instantiatedModules(s).length > 1 ? 'modules' : 'module', modulesText(s) ?? '–'],
    ['Node', env.node],
    ['V8', env.v8],
    ['CPU', `${env.cpu ?? '–'} (${env.cpus ?? '?'} cores)`],
    ['platform', [env.platform, env.arch, env.os ? `(${env.os})` : null].filter(Boolean).join(' ')],
  ])}</section>`;
}

// The run against its baseline (--baseline), or nothing.
function baselineSection(s) {
  if (!s.baseline) return '';
  const items = baselineLines(s.baseline).map((l) => `<li>${proseHtml(l)}</li>`);
  return `<section id="baseline"><h2>Against the baseline</h2><ul>${items.join('')}</ul></section>`;
}

// Renders the page. figures: [{ name, svg }] with gnuplot's SVG text;
// skipped: null or why plots are missing.
export function renderHtml(summary, { figures = [], skipped = null } = {}) {
  const s = summary;
  const byName = new Map(figures.map((f) => [f.name, f]));
  // The time-split figure stands in its own section, beside its table.
  const split = byName.get('time-split');
  const ordered = orderFigures(s, [...byName.keys()])
    .filter((name) => name !== 'time-split')
    .map((name) => byName.get(name));
  return htmlPage({
    title: `wasm-soak: ${s.verdict ?? s.status} — ${figureTitle(s)}`,
    head: banner(s),
    body: `${nextSection(s)}${leadSection(s, ordered)}${errorSection(s)}${findingsSection(s)}${baselineSection(s)}${figuresSection(s, ordered, skipped)}${opsSection(s)}${allocatorSection(s)}${timeSplitSection(s, split ? figureHtml(split) : '')}${sitesSection(s)}${objectsSection(s)}${memorySection(
      s,
      ordered.map((f) => f.name),
    )}${runSection(s)}`,
    css: `${SITES_CSS}${BLOCKS_CSS}`,
    footer: `Written by ${toolName(s)} from summary.json (schema ${s.version ?? '?'}).`,
  });
}

// The `html` format's writer (src/options/formats.js): dir/report.html, with
// the SVG figures drawn into dir (context.figures: their file names) inlined,
// each with its narrow-screen render when there is one.
export async function write(dir, summary, { figures, skipped }) {
  const svgs = await Promise.all(
    figures
      .filter((f) => f.endsWith('.svg') && !f.endsWith('-narrow.svg'))
      .map(async (f) => {
        const name = f.replace(/\.svg$/, '');
        const narrow = figures.includes(`${name}-narrow.svg`)
          ? await readFile(join(dir, `${name}-narrow.svg`), 'utf8')
          : null;
        return { name, svg: await readFile(join(dir, f), 'utf8'), narrow };
      }),
  );
  writeResultFile(join(dir, 'report.html'), renderHtml(summary, { figures: svgs, skipped }));
}
