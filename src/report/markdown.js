// summary.md: a short Markdown report that fits a GitHub step summary.

import { join } from 'node:path';
import { writeResultFile } from '../result-file.js';
import { baselineLines } from './baseline-words.js';
import { escapeMarkdown, markdownBlock } from './escape.js';
import { formatAllocs, formatBytes, formatCount, formatMs, formatNs, formatPercent } from './format.js';
import { figureTitle, findingFigure, leadFinding, orderedFindings, stackFlatText } from './lead.js';
import { nextSteps } from './next-steps.js';
import { objectRows, objectsNote } from './objects-rows.js';
import { INSTALL_HINT } from './plots.js';
import { earlyStopWords } from './progress-words.js';
import { FRAMES_HEADING, targetFrames } from './stack.js';
import {
  allocationRows,
  findingEvidence,
  growthRows,
  medianChange,
  modulesText,
  opRows,
  partialCountText,
  sourceRows,
} from './tables.js';
import { timeSplitLines } from './time-split-md.js';
import { blocksHintLine, noteLines, toolName, undecidedLines, verdictLine } from './words.js';

// Every text in summary.md that is not its own Markdown is escaped
// (escape.js): the sentences carry what the module and the scenario
// control (export and function names, error messages, the producers
// section, bytes of its memory), and GitHub renders inline HTML. Inert,
// one line, safe in a table cell; quotes stay readable in the raw file.
const cell = escapeMarkdown;

const signed = (b) => (Number.isFinite(b) && b > 0 ? `+${formatBytes(b)}` : formatBytes(b));

// Sites shown in summary.md.
const SITES_ROWS = 5;

// The allocation sites whose live bytes grew (--sites), compact.
function sitesLines(s) {
  const growing = s.sites?.growing ?? [];
  if (!growing.length) return [];
  return [
    '**Allocation sites whose live bytes grew since warm-up** (counting pass, innermost frame first)',
    '',
    '| live bytes grown | share | op | stack |',
    '|--:|--:|---|---|',
    ...growing
      .slice(0, SITES_ROWS)
      .map(
        (g) =>
          `| +${formatBytes(g.liveBytes.growth)} | ${Math.round(g.share * 100)} % | ${cell(g.op ?? '–')} | ${cell(g.stack)} |`,
      ),
    '',
  ];
}

// The glue's objects by class (summary.objects), compact.
function objectsLines(s) {
  const rows = objectRows(s);
  if (!rows.length) return [];
  return [
    '**Objects by class** (since warm-up)',
    '',
    '| class | made | freed by the application | reclaimed by the GC | collected, no free | still held | op | freed by |',
    '|---|--:|--:|--:|--:|--:|---|---|',
    ...rows.map(
      (r) =>
        `| ${cell(r.name)} | ${formatCount(r.made)} | ${formatCount(r.freed)} | ${formatCount(r.reclaimed)} | ${formatCount(r.collected)} | ${formatCount(r.held)} | ${r.op === null ? '–' : cell(r.op)} | ${r.freedBy} |`,
    ),
    '',
    `<sub>${cell(objectsNote(s, formatBytes))}</sub>`,
    '',
  ];
}

// Inside the allocator, compact: per-op allocations with both median times,
// growth by op, and one line on the sources (what is missing and why).
function allocatorLines(s) {
  const out = [];
  const allocs = allocationRows(s);
  if (allocs.length) {
    out.push(
      '**Inside the allocator** (counting pass: same seed and calls, instrumented; the timed pass is not)',
      '',
      ...(s.allocations.partial ? [partialCountText(s.allocations), ''] : []),
      '| op | calls | allocs/call median | p99 | bytes/call median | p99 | live left behind | time/call timed | counting |',
      '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    );
    for (const r of allocs) {
      out.push(
        `| ${cell(r.name)} | ${formatCount(r.calls)} | ${formatAllocs(r.allocs.median)} | ${formatAllocs(r.allocs.p99)} | ` +
          `${formatBytes(r.bytes.median)} | ${formatBytes(r.bytes.p99)} | ${r.liveLeftBehind == null ? '–' : signed(r.liveLeftBehind)} | ` +
          `${r.timedMedianNs == null ? '–' : formatNs(r.timedMedianNs)} | ${r.countMedianNs == null ? '–' : formatNs(r.countMedianNs)} |`,
      );
    }
    out.push('');
  }
  const growth = growthRows(s).filter((g) => g.growthEvents > 0 || g.liveLeftBehind);
  if (growth.length) {
    const live = growth.some((g) => g.liveLeftBehind != null);
    out.push(
      `| op | growth events | grown bytes |${live ? ' live left behind |' : ''}`,
      `|---|--:|--:|${live ? '--:|' : ''}`,
    );
    for (const g of growth) {
      out.push(
        `| ${cell(g.op)} | ${formatCount(g.growthEvents)} | ${formatBytes(g.grownBytes)} |${live ? ` ${g.liveLeftBehind == null ? '–' : signed(g.liveLeftBehind)} |` : ''}`,
      );
    }
    out.push('');
  }
  const sources = sourceRows(s);
  if (sources.length) {
    const found = sources.filter((r) => r.found && r.what !== 'counting pass').map((r) => `${r.what}: ${r.source}`);
    const missing = sources.filter((r) => !r.found).map((r) => `${r.what}${r.enable ? ` (${r.enable})` : ''}`);
    out.push(
      `<sub>Sources: ${found.length ? cell(found.join(' · ')) : 'none found'}.${missing.length ? ` Missing: ${cell(missing.join('; '))}.` : ''}</sub>`,
      '',
    );
  }
  return out;
}

// figures: file names next to summary.md ('time.png', ...); skipped: null or
// why plots are missing.
export function renderMarkdown(s, { figures = [], skipped = null } = {}) {
  const v = verdictLine(s);
  const out = [`## ${v.ok ? '✅' : v.unsure ? '⚠️' : '❌'} ${cell(v.title)}: ${cell(figureTitle(s))}`, ''];
  // The verdict's sentence when no finding tells it; a failed run's error always.
  if (!s.findings?.length || s.status === 'failed') out.push(cell(v.text), '');
  for (const f of orderedFindings(s)) {
    out.push(`- **${cell(f.kind)}**: ${cell(f.sentence)}`);
    const evidence = findingEvidence(f).filter(([k]) => k !== 'series');
    if (evidence.length) out.push(`  <sub>${evidence.map(([k, t]) => cell(`${k}: ${t}`)).join(' · ')}</sub>`);
    const hint = blocksHintLine(f);
    if (hint) out.push(`  <sub>${cell(hint)}</sub>`);
  }
  if (s.findings?.length) out.push('');
  if (s.baseline) out.push(...baselineLines(s.baseline).map((l) => `- ${cell(l)}`), '');
  const undecided = undecidedLines(s);
  if (undecided.length) out.push('Inconclusive:', '', ...undecided.map((l) => `- ${cell(l)}`), '');
  const notes = noteLines(s);
  if (notes.length) out.push('Notes (no finding):', '', ...notes.map((l) => `- ${cell(l)}`), '');
  // What to do next, then the figure that carries the finding.
  out.push('**Next step**', '');
  nextSteps(s).forEach((x, i) => {
    out.push(`${i + 1}. ${cell(x.text)}`);
    if (x.command) out.push(...markdownBlock([x.command], 'sh', '   '));
  });
  out.push('');
  const lead = findingFigure(leadFinding(s));
  if (lead && figures.includes(`${lead}.png`))
    out.push(
      `Evidence: [${lead} figure](${lead}.png) (the finding's series, its fitted trend and the window tested)`,
      '',
    );
  const frames = targetFrames(s.error);
  if (frames.length) out.push(`${FRAMES_HEADING}:`, '', ...markdownBlock(frames), '');
  if (s.error?.stack) out.push(...markdownBlock([s.error.stack]), '');
  const rows = opRows(s);
  if (rows.length) {
    out.push('| op | calls | early median | late median | change | late p99 |', '|---|--:|--:|--:|--:|--:|');
    for (const r of rows) {
      out.push(
        `| ${cell(r.name)} | ${formatCount(r.count)} | ${formatNs(r.time?.early?.median)} | ` +
          `${formatNs(r.time?.late?.median)} | ${formatPercent(medianChange(r.time))} | ${formatNs(r.time?.late?.p99)} |`,
      );
    }
    out.push('');
  }
  out.push(...allocatorLines(s), ...timeSplitLines(s), ...sitesLines(s), ...objectsLines(s));
  const m = s.memory;
  if (m)
    out.push(
      `Memory: ${formatBytes(m.start)} → ${formatBytes(m.end)} (${formatCount(m.growthEvents)} growth events). ` +
        `Run: ${formatCount(s.iterations?.completed)} calls in ${formatMs(s.durationMs)}, ${cell(s.status)}.`,
      '',
    );
  if (s.earlyStop) out.push(`Ended early: ${escapeMarkdown(earlyStopWords(s.earlyStop))}`, '');
  // The figures drawn, by name ('memory.png', 'memory-narrow.svg' → 'memory').
  const stack = stackFlatText(s, [...new Set(figures.map((f) => f.replace(/(-narrow)?\.\w+$/, '')))]);
  if (stack) out.push(`Shadow stack ${stack}.`, '');
  // The modules a scenario instantiated (a raw target's is its own path).
  const modules = s.target?.module ? null : modulesText(s);
  if (modules) out.push(`Modules: ${cell(modules)}.`, '');
  const images = figures.filter((f) => f.endsWith('.png'));
  if (images.length)
    out.push(
      `Figures: ${images.map((f) => `[${f.replace(/\.png$/, '')}](${f})`).join(' · ')} · [report](report.html)`,
      '',
    );
  if (skipped) out.push(`> Plots were skipped: ${cell(skipped)}. Install gnuplot with \`${INSTALL_HINT}\`.`, '');
  out.push(`<sub>${toolName(s)}</sub>`, '');
  return out.join('\n');
}

// The `md` format's writer (src/options/formats.js): dir/summary.md.
export async function write(dir, summary, { figures, skipped }) {
  writeResultFile(join(dir, 'summary.md'), renderMarkdown(summary, { figures, skipped }));
}
