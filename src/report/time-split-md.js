// summary.md's "Where the time goes" (--time-split): a table of the four
// parts per op, the allocator's events by size class, and the advice.
import { escapeMarkdown as cell, markdownCode } from './escape.js';
import { formatCount, formatNs } from './format.js';
import {
  adviceParts,
  classRows,
  PART_WORDS,
  sharePercent,
  swapNote,
  swapRows,
  timeSplitNote,
  timeSplitRows,
} from './time-split-rows.js';

/** The section's lines, [] without summary.timeSplit. */
export function timeSplitLines(s) {
  const rows = timeSplitRows(s);
  if (!rows.length) return [];
  const parts = Object.keys(PART_WORDS);
  const out = [
    '**Where the time goes** (time-split pass: per call, stamps taken off)',
    '',
    `| op | calls | time/call | ${parts.map((p) => PART_WORDS[p]).join(' | ')} | allocator 95 % interval | allocs/call |`,
    `|---|--:|--:|${parts.map(() => '--:|').join('')}--:|--:|`,
  ];
  for (const r of rows) {
    const cells = parts.map((p) => `${formatNs(r.parts[p][0])} (${sharePercent(r.parts[p][1])})`);
    out.push(
      `| ${cell(r.name)} | ${formatCount(r.calls)} | ${formatNs(r.callNs)} | ${cells.join(' | ')} | ${r.allocatorInterval} | ${formatCount(r.allocsPerCall)} |`,
    );
  }
  out.push('');
  const classes = classRows(s);
  if (classes.length) {
    out.push('| allocator event | size | events | median | mean |', '|---|---|--:|--:|--:|');
    for (const c of classes)
      out.push(
        `| ${c.kind} | ${c.range} | ${formatCount(c.events)} | ${formatNs(c.medianNs)} | ${formatNs(c.nsPerEvent)} |`,
      );
    out.push('');
  }
  for (const a of adviceParts(s)) out.push(`- ${cell(a.before)}${markdownCode(a.op)}${cell(a.after)}`);
  out.push('', `<sub>${cell(timeSplitNote(s))}</sub>`, '');
  const swap = swapRows(s);
  if (swap.length) {
    out.push(
      '| op | allocator per call, swapped (95 %) | stamped (95 %) | agree |',
      '|---|---|---|---|',
      ...swap.map((r) => `| ${cell(r.name)} | ${cell(r.swap)} | ${r.stamped} | ${r.agree} |`),
      '',
      `<sub>${cell(swapNote(s))}</sub>`,
      '',
    );
  }
  return out;
}
