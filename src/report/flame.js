// The icicle of live-bytes growth by allocation stack: one self-contained
// SVG string, no script. The top row is all the growth; below it the ops,
// then each site's frames from the outermost kept to the allocator's caller,
// every box as wide as the growth allocated under it. Colours come from the
// page's CSS classes (sites-html.js), so dark mode and print follow the page;
// every box has a <title> with its stack and bytes (hover, screen readers).
import { escapeMarkup as esc } from './escape.js';
import { formatBytes } from './format.js';

const ROW = 22; // px per row, in viewBox units
const CHAR = 6.6; // width of one character at the 11-unit font
const PAD = 4;

/**
 * The tree of growth: { name, bytes, children: Map } from sites ([{ op,
 * frames, liveBytes: { growth } }], growing only): root, op, then frames
 * outermost first.
 */
function growthTree(sites) {
  const root = { name: 'all growth', bytes: 0, children: new Map() };
  for (const s of sites) {
    const bytes = s.liveBytes.growth;
    if (!(bytes > 0)) continue;
    root.bytes += bytes;
    const path = [s.op == null ? '(outside calls)' : `op ${s.op}`, ...[...s.frames].reverse().map((f) => f.name)];
    let node = root;
    for (const name of path) {
      if (!node.children.has(name)) node.children.set(name, { name, bytes: 0, children: new Map() });
      node = node.children.get(name);
      node.bytes += bytes;
    }
  }
  return root;
}

/** The depth of the tree below node (node itself is 1). */
const depthOf = (node) => 1 + Math.max(0, ...[...node.children.values()].map(depthOf));

/**
 * An icicle SVG of sites' live-bytes growth, width viewBox units wide (the
 * page shows a 1000-wide one on wide screens and a 390-wide one on narrow
 * ones, each at its own scale). label names the figure for screen readers.
 * '' when nothing grew.
 */
export function icicleSvg(sites, { width, label }) {
  const root = growthTree(sites);
  if (root.bytes <= 0) return '';
  const rows = depthOf(root);
  const height = rows * ROW;
  const boxes = [];
  const place = (node, x, depth, stack) => {
    const w = (node.bytes / root.bytes) * width;
    const path = [...stack, node.name];
    const share = Math.round((node.bytes / root.bytes) * 100);
    const title = `${path.slice(1).reverse().join(' ← ') || node.name}: +${formatBytes(node.bytes)} (${share} %)`;
    const fits = Math.floor((w - 2 * PAD) / CHAR);
    const text = fits >= node.name.length ? node.name : fits >= 4 ? `${node.name.slice(0, fits - 1)}…` : '';
    const y = depth * ROW;
    boxes.push(
      `<g><title>${esc(title)}</title><rect class="fl${depth === 0 ? 'r' : depth % 4}" x="${x.toFixed(2)}" y="${y}" width="${Math.max(0.5, w - 1).toFixed(2)}" height="${ROW - 1}" rx="2"/>` +
        (text ? `<text x="${(x + PAD).toFixed(2)}" y="${y + 15}">${esc(text)}</text>` : '') +
        '</g>',
    );
    let cx = x;
    for (const child of [...node.children.values()].sort((a, b) => b.bytes - a.bytes)) {
      place(child, cx, depth + 1, path);
      cx += (child.bytes / root.bytes) * width;
    }
  };
  place(root, 0, 0, []);
  return `<svg class="icicle" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${esc(label)}">${boxes.join('')}</svg>`;
}
