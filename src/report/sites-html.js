// report.html's allocation sites (--sites): the sites whose live bytes grew
// since warm-up, as a table and an icicle (flame.js), and the sites that
// allocate most per call (turnover). Rendered from summary.sites.
import { escapeMarkup as esc } from './escape.js';
import { icicleSvg } from './flame.js';
import { formatAllocs, formatBytes, formatCount } from './format.js';

// Rows of the turnover table.
const TURNOVER_ROWS = 10;

/** The page CSS the section needs: icicle colours light, dark and print, and its two widths. */
export const SITES_CSS = `
.icicle{display:block;width:100%;height:auto;font:11px system-ui,sans-serif}.icicle text{fill:#1d232b;pointer-events:none}
.icicle rect{stroke:var(--card);stroke-width:1}.icicle .flr{fill:#c9ced6}.icicle .fl0{fill:#f2b880}.icicle .fl1{fill:#f4cf8e}.icicle .fl2{fill:#eea58a}.icicle .fl3{fill:#f6dca6}
@media (prefers-color-scheme:dark){.icicle text{fill:#f1f3f5}.icicle .flr{fill:#4a515b}.icicle .fl0{fill:#8a5326}.icicle .fl1{fill:#7d6223}.icicle .fl2{fill:#8c3f2b}.icicle .fl3{fill:#6e5a2a}}
#sites-icicle{margin:10px 0}.icicle-narrow{display:none}table.grid td.stack{white-space:normal;text-align:left;min-width:16em}
@media (max-width:700px){.icicle-wide{display:none}.icicle-narrow{display:block}}
@media print{.icicle-wide{display:block}.icicle-narrow{display:none}.icicle text{fill:#000}.icicle .flr{fill:#ddd}.icicle .fl0{fill:#f2b880}.icicle .fl1{fill:#f4cf8e}.icicle .fl2{fill:#eea58a}.icicle .fl3{fill:#f6dca6}}
`;

/** A stack as HTML, innermost first, each frame with where its name came from. */
function stackHtml(frames) {
  if (frames.length === 0) return '<span class="muted">no wasm frame (called from the host)</span>';
  return frames
    .map((f) => {
      const where = f.from ? f.from : `no name: function ${f.index}, body at 0x${(f.offset ?? 0).toString(16)}`;
      return `<code title="${esc(where)}">${esc(f.name)}</code>`;
    })
    .join(' ← ');
}

/** The sites section of summary s, or '' without sites. */
export function sitesSection(s) {
  const sites = s.sites;
  if (!sites) return '';
  const w = sites.window;
  const parts = [
    `<section id="sites"><h2>Allocation sites</h2><p class="muted">Where the counting pass's allocations came from: the op and the ${sites.frames} innermost wasm functions at the allocator's entry, innermost first. Live bytes at the snapshot at or before warm-up's end (call ${formatCount(w.from)}) and at the end (call ${formatCount(w.to)}); every allocation recorded (no sampling).</p>`,
  ];
  if (sites.growing.length) {
    parts.push(`<h3>Sites whose live bytes grew</h3><div class="scroll" role="region" aria-label="Sites whose live bytes grew" tabindex="0"><table class="grid" id="sites-growing">
<tr><th>#</th><th>live bytes grown</th><th>blocks</th><th>share</th><th>op</th><th>allocs/call</th><th>frees</th><th>stack (innermost first)</th></tr>
${sites.growing.map((g, i) => `<tr><td>${i + 1}</td><td>+${esc(formatBytes(g.liveBytes.growth))}</td><td>+${esc(formatCount(g.liveBlocks.growth))}</td><td>${Math.round(g.share * 100)} %</td><td>${esc(g.op ?? '–')}</td><td>${esc(formatAllocs(g.allocsPerCall))}</td><td>${esc(formatCount(g.frees))}</td><td class="stack">${stackHtml(g.frames)}</td></tr>`).join('\n')}
</table></div>`);
    const label =
      "Icicle of live-bytes growth by allocation stack: the top row is all growth, below it the ops, then the frames from the outermost to the allocator's caller, each as wide as the growth allocated under it.";
    // Not a <figure>: the page inverts figures' gnuplot SVGs in dark mode; the icicle has its own colours.
    parts.push(`<div id="sites-icicle"><div class="icicle-wide">${icicleSvg(sites.growing, { width: 1000, label })}</div><div class="icicle-narrow">${icicleSvg(sites.growing, { width: 390, label })}</div>
<p class="muted">${esc(label)} Hover a box for its stack and bytes.</p></div>`);
  } else parts.push(`<p>${esc(sites.growthNote ?? "No site's live bytes grew after warm-up.")}</p>`);
  const turnover = sites.turnover.slice(0, TURNOVER_ROWS);
  if (turnover.length) {
    parts.push(`<h3>Allocations per call by site</h3><div class="scroll" role="region" aria-label="Allocations per call by site" tabindex="0"><table class="grid" id="sites-turnover">
<tr><th>allocs/call</th><th>bytes</th><th>op</th><th>stack (innermost first)</th></tr>
${turnover.map((t) => `<tr><td>${esc(formatAllocs(t.allocsPerCall))}</td><td>${esc(formatBytes(t.allocBytes))}</td><td>${esc(t.op ?? '–')}</td><td class="stack">${stackHtml(t.frames)}</td></tr>`).join('\n')}
</table></div>`);
  }
  parts.push('</section>');
  return parts.join('');
}
