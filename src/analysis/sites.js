// What the allocation sites say (docs/summary.md, "sites"): live bytes and
// blocks per site at the trend window's start (the snapshot at or before
// the end of warm-up) and at the end, the sites whose live bytes grew
// ranked by growth (a leak's candidates), and the turnover per site
// (allocations per call) over the same calls. A site is the op and the
// innermost frames at the allocator's entry (src/worker/allocator/frames.js).
import { SITE_NO_OP, SITE_VALUE, SITE_VALUE_FIELDS } from '../protocol.js';

// Sites listed by growth and by turnover, at most.
const TOP_SITES = 20;
// A finding names the top sites that together hold this share of the
// growth, at most NAMED_SITES of them.
const NAMED_SHARE = 0.9;
const NAMED_SITES = 3;

/** The snapshot at or before calls (the first when none is). */
function snapshotAt(snapshots, calls) {
  let at = snapshots[0];
  for (const s of snapshots) if (s.calls <= calls) at = s;
  return at;
}

/** Site id's value field in snapshot s (0 for a site not yet seen then). */
export const siteValue = (s, id, field) => s.values[id * SITE_VALUE_FIELDS + field] ?? 0;

/**
 * The sites summary of raw (the worker's sites result, or null) over the
 * counting pass's calls from warm-up (windowFrom) to the end; ops: the
 * run's ops; caveat: why the pass's live bytes are no evidence
 * (countingPass.caveat, e.g. 'boundary-only': the module frees the blocks
 * of the wrappers unseen, so growth by site would blame the calls that pass
 * buffers in), null when they are. null without sites. Returns { frames,
 * sampling, window: { from, to }, sites, growing, growthCaveat, turnover,
 * totals } where growing lists the sites whose live bytes grew, largest
 * growth first (none with a caveat, growthCaveat then), and turnover the
 * sites that allocated most per call; each site is { op, module, frames,
 * stack, liveBytes, liveBlocks ({ start, end, growth }), allocs,
 * allocBytes, frees, allocsPerCall, share (of the total growth) }.
 */
export function sitesSummary(raw, { windowFrom, ops, caveat = null }) {
  if (!raw || raw.snapshots.length === 0) return null;
  const end = raw.snapshots.at(-1);
  const start = snapshotAt(raw.snapshots, windowFrom);
  const calls = Math.max(1, end.calls - start.calls);
  const all = raw.sites.map((site, id) => {
    const field = (s, f) => siteValue(s, id, SITE_VALUE[f]);
    const span = (f) => ({ start: field(start, f), end: field(end, f), growth: field(end, f) - field(start, f) });
    const allocs = field(end, 'allocs') - field(start, 'allocs');
    return {
      op: site.op === SITE_NO_OP ? null : (ops[site.op]?.name ?? null),
      module: site.module,
      frames: site.frames,
      stack: stackText(site.frames),
      liveBytes: span('liveBytes'),
      liveBlocks: span('liveBlocks'),
      allocs,
      allocBytes: field(end, 'allocBytes') - field(start, 'allocBytes'),
      frees: field(end, 'frees') - field(start, 'frees'),
      allocsPerCall: allocs / calls,
    };
  });
  const growth = all.reduce((sum, s) => sum + Math.max(0, s.liveBytes.growth), 0);
  for (const s of all) s.share = growth > 0 ? Math.max(0, s.liveBytes.growth) / growth : 0;
  const growing = all
    .filter((s) => caveat === null && s.liveBytes.growth > 0)
    .sort((a, b) => b.liveBytes.growth - a.liveBytes.growth)
    .slice(0, TOP_SITES);
  const turnover = all
    .filter((s) => s.allocs > 0)
    .sort((a, b) => b.allocs - a.allocs)
    .slice(0, TOP_SITES);
  const sum = (f) => all.reduce((t, s) => t + f(s), 0);
  return {
    frames: raw.frames,
    sampling: null, // every allocation is recorded
    window: { from: start.calls, to: end.calls },
    sites: all.length,
    growing,
    growthCaveat: caveat,
    turnover,
    totals: {
      liveBytesGrowth: sum((s) => s.liveBytes.growth),
      liveBytesEnd: sum((s) => s.liveBytes.end),
      allocs: sum((s) => s.allocs),
      allocsPerCall: sum((s) => s.allocs) / calls,
    },
  };
}

/** A stack in words, innermost first: "copy_string ← intern_header ← parse_headers". */
function stackText(frames) {
  return frames.length === 0 ? '(no wasm frame: called from the host)' : frames.map((f) => f.name).join(' ← ');
}

/**
 * The growing sites a finding names: the top ones holding NAMED_SHARE of
 * the growth together (at most NAMED_SITES).
 */
export function namedSites(summary) {
  const out = [];
  let share = 0;
  for (const s of summary?.growing ?? []) {
    if (out.length >= NAMED_SITES || share >= NAMED_SHARE) break;
    out.push(s);
    share += s.share;
  }
  return out;
}
