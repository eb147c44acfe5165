// report.html's "Where the time goes" (--time-split): the advice per op,
// the table of the four parts, the allocator's events by size class, and
// the figure (plots/time-split-figure.js), placed with the others.
import { escapeMarkup as esc } from './escape.js';
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

export const TIME_SPLIT_CAPTION =
  'Where the time goes: each op’s time per call in the algorithm, the allocator, memory.grow and the JS glue (time-split pass, the stamps’ cost taken off).';

/** The section's HTML, '' without summary.timeSplit; figure: the time-split figure's HTML or ''. */
export function timeSplitSection(s, figure = '') {
  const rows = timeSplitRows(s);
  if (!rows.length) return '';
  const parts = Object.keys(PART_WORDS);
  const advice = adviceParts(s).map((a) => `<li>${esc(a.before)}<code>${esc(a.op)}</code>${esc(a.after)}</li>`);
  const table = `<div class="scroll" role="region" aria-label="Where the time goes" tabindex="0"><table class="grid" id="time-split">
<tr><th>op</th><th>calls</th><th>time/call</th>${parts.map((p) => `<th>${esc(PART_WORDS[p])}</th>`).join('')}<th>allocator 95 % interval</th><th>allocs/call</th></tr>
${rows
  .map(
    (r) =>
      `<tr><td>${esc(r.name)}</td><td>${esc(formatCount(r.calls))}</td><td>${esc(formatNs(r.callNs))}</td>${parts
        .map((p) => `<td>${esc(`${formatNs(r.parts[p][0])} (${sharePercent(r.parts[p][1])})`)}</td>`)
        .join('')}<td>${esc(r.allocatorInterval)}</td><td>${esc(formatCount(r.allocsPerCall))}</td></tr>`,
  )
  .join('\n')}
</table></div>`;
  const classes = classRows(s);
  const classTable = classes.length
    ? `<div class="scroll" role="region" aria-label="Allocator events by size" tabindex="0"><table class="grid">
<tr><th>allocator event</th><th>size</th><th>events</th><th>median</th><th>mean</th></tr>
${classes.map((c) => `<tr><td>${esc(c.kind)}</td><td>${esc(c.range)}</td><td>${esc(formatCount(c.events))}</td><td>${esc(formatNs(c.medianNs))}</td><td>${esc(formatNs(c.nsPerEvent))}</td></tr>`).join('\n')}
</table></div>`
    : '';
  const swap = swapRows(s);
  const swapTable = swap.length
    ? `<div class="scroll" role="region" aria-label="Allocator swap" tabindex="0"><table class="grid" id="allocator-swap">
<tr><th>op</th><th>allocator per call, swapped (95 %)</th><th>stamped (95 %)</th><th>agree</th></tr>
${swap.map((r) => `<tr><td>${esc(r.name)}</td><td>${esc(r.swap)}</td><td>${esc(r.stamped)}</td><td>${esc(r.agree)}</td></tr>`).join('\n')}
</table></div><p class="muted">${esc(swapNote(s))}</p>`
    : '';
  return `<section id="where-time-goes"><h2>Where the time goes</h2><ul>${advice.join('')}</ul>${figure}${table}${classTable}<p class="muted">${esc(timeSplitNote(s))}</p>${swapTable}</section>`;
}
