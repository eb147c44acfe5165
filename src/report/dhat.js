// The allocation sites in the JSON that Valgrind's DHAT viewer
// (dh_view.html, file version 2, mode "heap") reads: one program point per
// site, its frames innermost first as DHAT lists them, the site's op as the
// outermost frame (`op NAME`, or `(outside calls)`). Time is counted in calls
// of the counting pass, not instructions: t-end is its last call. Per site:
// the bytes and blocks it allocated over the pass (Total) and still live at
// its end (At t-end), exactly as counted; its largest live bytes and blocks
// (Max), its live bytes and blocks when the sites together held most
// (At t-gmax) and its blocks' summed lifetime are read from the snapshots of
// the sites (before the first call, every 32nd of the pass, the end), so a
// peak between two snapshots is unseen and a lifetime is the area under the
// site's live blocks between them (a block allocated and freed within one
// call counts as living no call). The command line the viewer shows says so.
// No access counts (bkacc false): wasm-soak does not watch the heap's reads
// and writes.
import { siteValue } from '../analysis/sites.js';
import { SITE_NO_OP, SITE_VALUE } from '../protocol.js';
import { siteFrameName } from './site-names.js';

// Blocks that live this long on average, or less, are short-lived (the
// viewer's "short-lived" sort), in calls.
const SHORT_LIVED_CALLS = 1;

/**
 * The DHAT viewer's JSON object of raw (sites.json's content: the worker's
 * sites result); ops: the run's op names by index; command: the run's
 * command line (the log header's reproduce).
 */
export function sitesDhat(raw, ops, command) {
  const snapshots = raw.snapshots;
  const end = snapshots.at(-1);
  const value = (s, id, field) => siteValue(s, id, SITE_VALUE[field]);
  const total = (s) => raw.sites.reduce((sum, _, id) => sum + value(s, id, 'liveBytes'), 0);
  // t-gmax: the snapshot at which the sites held the most live bytes (the first of equals).
  const gmax = snapshots.reduce((best, s) => (total(s) > total(best) ? s : best), snapshots[0]);

  const ftbl = ['[root]'];
  const frameIds = new Map(); // frame text -> index in ftbl
  const frameId = (text) => {
    if (!frameIds.has(text)) frameIds.set(text, ftbl.push(text) - 1);
    return frameIds.get(text);
  };
  // Two functions of one name would merge; they keep their index then.
  const named = new Map(); // frame text -> "module:index" of the first function named so
  const frameText = (module, frame) => {
    const text = siteFrameName(raw, module, frame);
    const key = `${module}:${frame.index}`;
    if (!named.has(text)) named.set(text, key);
    return named.get(text) === key ? text : `${text} (func[${frame.index}])`;
  };

  const pps = raw.sites.map((site, id) => {
    const series = (field) => snapshots.map((s) => value(s, id, field));
    const blocks = series('liveBlocks');
    let lifetimes = 0;
    for (let k = 1; k < snapshots.length; k++)
      lifetimes += ((blocks[k - 1] + blocks[k]) / 2) * (snapshots[k].calls - snapshots[k - 1].calls);
    const op = site.op === SITE_NO_OP ? '(outside calls)' : `op ${ops[site.op] ?? site.op}`;
    return {
      tb: value(end, id, 'allocBytes'),
      tbk: value(end, id, 'allocs'),
      tl: Math.round(lifetimes),
      mb: Math.max(...series('liveBytes')),
      mbk: Math.max(...blocks),
      gb: value(gmax, id, 'liveBytes'),
      gbk: value(gmax, id, 'liveBlocks'),
      eb: value(end, id, 'liveBytes'),
      ebk: value(end, id, 'liveBlocks'),
      fs: [...site.frames.map((f) => frameId(frameText(site.module, f))), frameId(op)],
    };
  });
  return {
    dhatFileVersion: 2,
    mode: 'heap',
    verb: 'Allocated',
    bklt: true,
    bkacc: false,
    tu: 'calls',
    Mtu: 'Mcall',
    tuth: SHORT_LIVED_CALLS,
    cmd:
      `${command} (wasm-soak's allocation sites of the counting pass: every allocation recorded, no sampling, ` +
      `the ${raw.frames} innermost wasm frames of each; times in calls; Max, At t-gmax and lifetimes read from ` +
      `${snapshots.length} snapshots of the sites)`,
    pid: 'not recorded',
    te: end.calls,
    tg: gmax.calls,
    pps,
    ftbl,
  };
}
