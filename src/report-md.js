// summary.md: a short Markdown report that fits a GitHub step summary.
import {
  figureTitle, findingEvidence, formatBytes, formatCount, formatMs, formatNs, formatPercent,
  medianChange, opRows, reproduceCommand, verdictLine,
} from './report-format.js';
import { INSTALL_HINT } from './plots.js';

const cell = (s) => String(s ?? '').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

// figures: file names next to summary.md ('time.png', ...); skipped: null or
// why plots are missing.
export function renderMarkdown(s, { figures = [], skipped = null } = {}) {
  const v = verdictLine(s);
  const out = [`## ${v.ok ? '✅' : '❌'} ${v.title}: ${figureTitle(s)}`, ''];
  if (!s.findings?.length) out.push(v.text, '');
  if (s.error?.stack) out.push('```', s.error.stack, '```', '');
  for (const f of s.findings ?? []) {
    out.push(`- **${f.kind}**: ${f.sentence}`);
    const evidence = findingEvidence(f).filter(([k]) => k !== 'series');
    if (evidence.length) out.push(`  <sub>${evidence.map(([k, t]) => `${k}: ${t}`).join(' · ')}</sub>`);
  }
  if (s.findings?.length) out.push('');
  const rows = opRows(s);
  if (rows.length) {
    out.push('| op | calls | early median | late median | change | late p99 |', '|---|--:|--:|--:|--:|--:|');
    for (const r of rows) {
      out.push(`| ${cell(r.name)} | ${formatCount(r.count)} | ${formatNs(r.time?.early?.median)} | ` +
        `${formatNs(r.time?.late?.median)} | ${formatPercent(medianChange(r.time))} | ${formatNs(r.time?.late?.p99)} |`);
    }
    out.push('');
  }
  const m = s.memory;
  if (m) out.push(`Memory: ${formatBytes(m.start)} → ${formatBytes(m.end)} (${formatCount(m.growthEvents)} growth events). ` +
    `Run: ${formatCount(s.iterations?.completed)} calls in ${formatMs(s.durationMs)}, ${s.status}.`, '');
  const images = figures.filter((f) => f.endsWith('.png'));
  if (images.length) out.push(`Figures: ${images.map((f) => `[${f.replace(/\.png$/, '')}](${f})`).join(' · ')} · [report](report.html)`, '');
  if (skipped) out.push(`> Plots were skipped: ${skipped}. Install gnuplot with \`${INSTALL_HINT}\`.`, '');
  out.push('Reproduce:', '```sh', reproduceCommand(s), '```', '');
  return out.join('\n');
}
