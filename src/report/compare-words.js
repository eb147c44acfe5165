// A comparison's facts in words (docs/compare.md): the analysis
// (src/compare/analyze-compare.js) returns codes and numbers only, and
// withCompareSentences words them once, after it, for every output
// (compare.json's `sentence` fields, the terminal, compare.md,
// compare.html, a suite's lines). Also the stated confounds in few words,
// for the TL;DR and the terminal: a list of a hundred hashed import names per
// arm becomes "imports: A 36, B 42 (names differ by wasm-bindgen hashes; 6
// only in B)". compare.json keeps every value whole, and compare.html lists
// them below the numbers.
import { formatBytes, formatPercent, formatTolerance, plural, trim } from './format.js';

// The hash wasm-bindgen appends to an import's name (__wbg_log_1f2e3d4c5b6a7980).
const WBG_HASH = /_[0-9a-f]{16}(?= \(|$)/;
const LONGEST = 60;

const cut = (text) => (text.length > LONGEST ? `${text.slice(0, LONGEST - 1)}…` : text);

/** How arms' import lists differ, in words: counts, whether hashes alone differ, what one arm adds. */
function importsText(arms) {
  const counts = arms.map((a) => `${a.name} ${a.imports.length}`).join(', ');
  const hashed = arms.some((a) => a.imports.some((i) => WBG_HASH.test(i)));
  const sets = arms.map((a) => new Set(a.imports.map((i) => i.replace(WBG_HASH, ''))));
  const base = sets[0];
  const notes = [];
  if (hashed) notes.push('names differ by wasm-bindgen hashes');
  arms.slice(1).forEach((a, k) => {
    const mine = sets[k + 1];
    const only = [...mine].filter((i) => !base.has(i)).length;
    const gone = [...base].filter((i) => !mine.has(i)).length;
    if (only) notes.push(`${only} only in ${a.name}`);
    if (gone) notes.push(`${gone} only in ${arms[0].name}`);
  });
  return `${counts}${notes.length ? ` (${notes.join('; ')})` : ''}`;
}

/**
 * One stated confound in few words: aspect, values ({ arm: text }) of a
 * confound that differs or value (a text) of one that matches; arms: the
 * compared arms' results (their imports lists).
 */
export function confoundText({ aspect, values = null, value = null }, arms) {
  if (aspect === 'imports') {
    return values
      ? `${aspect}: ${importsText(arms)}`
      : `${aspect}: ${plural(arms[0].imports.length, 'import')} in every arm`;
  }
  if (!values) return `${aspect}: ${cut(value)}`;
  return `${aspect}: ${Object.entries(values)
    .map(([arm, text]) => `${arm}: ${cut(text)}`)
    .join(' | ')}`;
}

/**
 * The stated confounds the modules alone show, before any number, as
 * compare prints them: files [{ name, path, sha256, size }] (every arm's
 * file), confounds: src/compare/confounds.js's { differs, matches } with
 * every value whole.
 */
export function startConfoundsText(files, { differs, matches }) {
  const lines = files.map((a) => `  ${a.name}: ${a.path} (sha256 ${a.sha256.slice(0, 12)}…, ${a.size.raw} B)`);
  for (const d of differs) {
    lines.push(
      `  differs — ${d.aspect}: ${Object.entries(d.values)
        .map(([k, v]) => `${k} ${v}`)
        .join(' | ')}`,
    );
  }
  for (const m of matches) lines.push(`  matches — ${m.aspect}: ${m.value}`);
  return `compare: arms and stated confounds\n${lines.join('\n')}\n`;
}

/** The progress line after round done of total (the warm-up round first); order: the design's, in letters. */
export function roundWords(done, total, order) {
  if (done === 1) return 'compare: warm-up round done\n';
  const ran = order
    .split(' ')
    .slice(0, done - 1)
    .join(' ');
  return `compare: round ${done - 1}/${total - 1} done (${ran})\n`;
}

const levelWords = (level) => `${+(level * 100).toFixed(2)} %`;

/** The time difference in words: "×1.203 (95 %: ×1.18–×1.22), real" or "… within noise of the blocks' ±1.2 %". */
export function timeWords(d) {
  const t = d.time;
  const span = `×${t.ratio.toFixed(3)} (${levelWords(t.level)}: ×${(1 + t.low).toFixed(3)}–×${(1 + t.high).toFixed(3)})`;
  if (d.role === 'control') return `${span}, the noise floor`;
  const whose = t.floorFrom === 'control' ? "the control's" : "the blocks'";
  return `${span}, ${t.real ? 'real' : `within noise of ${whose} ±${trim(t.noiseFloor * 100, 2)} %`}`;
}

/**
 * How the time intervals were judged, in one sentence: the correction for
 * several arms (Bonferroni) and the floor a real difference clears.
 */
export function intervalWords(r) {
  const i = r.intervals;
  const family =
    i.claims > 1
      ? `Bonferroni-corrected for the ${i.claims} arms compared with ${r.arms[0].name}: each interval at ${levelWords(i.armLevel)}, so that all ${i.claims} hold together at ${levelWords(i.level)}`
      : `one arm compared with ${r.arms[0].name}: its interval at ${levelWords(i.level)}`;
  const control =
    i.controlFloor === null
      ? ''
      : ` or the control's interval (±${trim(i.controlFloor * 100, 2)} %), whichever is larger`;
  return `Time intervals: ${family}. A difference is real only beyond ${i.floorSpreads} × the spread of one arm's blocks against itself, at least ${trim(i.instanceFloor * 100, 2)} % (the offset identical builds showed in their own instances): ±${trim(i.spreadFloor * 100, 2)} %${control}.`;
}

// At most this ratio on the allocation-heavy path, a new allocator will not
// change much (the seed workflow's rule of thumb).
const ALLOCATOR_MATTERS = 1.2;

const NO_MEMORY =
  "unavailable: a native library shares the process heap, and this one defines no mallinfo2 of its own (the C library's counts the whole process)";

/**
 * What is known of a native arm's memory, in words, from its ownHeap
 * ({ live, largest } of its own mallinfo2, or null: why nothing is).
 */
function nativeMemoryWords(heap) {
  if (!heap) return NO_MEMORY;
  return `the library's own mallinfo2: ${formatBytes(heap.live)} live at the end, its heap at most ${formatBytes(heap.largest)}`;
}

const times = (r) => `${r.ratio.toFixed(2)}× native (95 %: ${r.low.toFixed(2)}–${r.high.toFixed(2)}×)`;
const perCall = (n) =>
  n === null ? 'uncounted' : n === 0 ? 'no allocation' : `${n.toFixed(n >= 10 ? 0 : 2)} allocations per call`;

/**
 * The sentence that answers "is the wasm slowdown mostly allocation?" for
 * ops [{ op, ratio, allocsPerCall }]: the op with the most allocations per
 * call against the one with the fewest, the gap placed only when their
 * intervals do not overlap. null with fewer than two counted ops that
 * differ in allocations.
 */
export function gapSentence(ops) {
  const counted = ops.filter((o) => o.ratio && o.allocsPerCall !== null);
  if (counted.length < 2) return null;
  const heavy = counted.reduce((a, b) => (b.allocsPerCall > a.allocsPerCall ? b : a));
  const light = counted.reduce((a, b) => (b.allocsPerCall < a.allocsPerCall ? b : a));
  if (heavy.allocsPerCall === light.allocsPerCall) return null;
  const said = `${heavy.op} is ${times(heavy.ratio)} at ${perCall(heavy.allocsPerCall)}, ${light.op} ${times(light.ratio)} at ${perCall(light.allocsPerCall)}`;
  let where;
  if (heavy.ratio.low > light.ratio.high) where = 'the gap is in allocation-heavy code';
  else if (heavy.ratio.high < light.ratio.low)
    where = 'the allocation-heavy op is the closer to native: the gap is not in allocation';
  else where = 'their intervals overlap: this comparison cannot tell whether allocation is the difference';
  const allocator =
    heavy.ratio.ratio <= ALLOCATOR_MATTERS
      ? `; at ${ALLOCATOR_MATTERS}× or less on the allocation-heavy path, a new allocator will not change much`
      : '';
  return `${said}: ${where}${allocator}.`;
}

/** A checked output that differs (outputs.js's mismatch m) in words; base: the first arm's name. */
const mismatchSentence = (m, base) =>
  `checked outputs differ: ${m.arm}'s call ${m.iteration} (block ${m.block}) returned ${m.got} where ${base}'s returned ${m.expected}`;

/**
 * A gate an arm broke (a regression g of the comparison r: its arm and
 * metric; the numbers are the arm's difference, result and r.gates), in
 * words.
 */
function regressionSentence(g, r) {
  const base = r.arms[0].name;
  const d = r.differences.find((x) => x.arm === g.arm);
  switch (g.metric) {
    case 'time': {
      const t = d.time;
      return `${g.arm} is slower than ${base}: ×${t.ratio.toFixed(3)} (${levelWords(t.level)} interval ×${(1 + t.low).toFixed(3)}–×${(1 + t.high).toFixed(3)}), beyond --fail-if-slower ${(r.gates.slower * 100).toFixed(1)} %`;
    }
    case 'allocations': {
      const calls = r.arms.find((a) => a.name === g.arm).counts.calls;
      const tolerance = g.tolerance ? `, beyond the tolerance of ${formatTolerance(g.tolerance, false)}` : '';
      return `${g.arm} allocates more than ${base}: ${d.allocs} more allocations over the same ${calls} calls${tolerance} (--fail-if-more-allocs)`;
    }
    case 'high-water': {
      const tolerance = g.tolerance ? `, beyond the tolerance of ${formatTolerance(g.tolerance, true)}` : '';
      return `${g.arm}'s memory high-water mark is ${formatBytes(d.highWater)} above ${base}'s${tolerance} (--fail-if-higher-water)`;
    }
    case 'outputs':
      return mismatchSentence(
        r.outputs.mismatches.find((m) => m.arm === g.arm),
        base,
      );
    default:
      return '';
  }
}

/** Why difference d's counts are not compared (the arms whose counting pass is not complete), or null. */
function countsReason(d, arms) {
  const short = [d.against, d.arm]
    .map((name) => arms.find((a) => a.name === name))
    .filter((a) => a.counting !== 'complete');
  return short.length ? short.map((a) => `${a.name}'s counting is ${a.counting}`).join('; ') : null;
}

/**
 * r (analyzeCompare's compare.json object, facts only) with every sentence
 * compare.json carries: each regression's and checked-output mismatch's
 * `sentence`, each native yardstick's `sentence` and `memory`, a native
 * arm's `memory.native` and why a difference's counts are not compared
 * (`counts.reason`). Returns a new object; r is not changed.
 */
export function withCompareSentences(r) {
  const base = r.arms[0].name;
  const differences = r.differences.map((d) => ({ ...d, counts: { ...d.counts, reason: countsReason(d, r.arms) } }));
  const arms = r.arms.map((a) =>
    a.kind === 'native' ? { ...a, memory: { ...a.memory, native: nativeMemoryWords(a.memory.ownHeap) } } : a,
  );
  const native = r.native && {
    ...r.native,
    arms: r.native.arms.map((y) => ({ ...y, memory: nativeMemoryWords(y.ownHeap), sentence: gapSentence(y.ops) })),
  };
  const mismatches = r.outputs.mismatches.map((m) => ({ ...m, sentence: mismatchSentence(m, base) }));
  return {
    ...r,
    arms,
    differences,
    native,
    outputs: { ...r.outputs, mismatches },
    regressions: r.regressions.map((g) => ({ ...g, sentence: regressionSentence(g, r) })),
  };
}

/**
 * The expectations of suite target t that a comparison did not meet
 * (src/compare/suite-target.js unmetExpectations: [{ expect, want, arm,
 * mismatch }]), as sentences.
 */
export function expectationSentences(t, unmet) {
  return unmet.map((u) => {
    if (u.expect === 'smaller') return `${t.name}: the smallest arm (gzip -9) is ${u.arm}, expected ${u.want}`;
    if (u.expect === 'faster') return `${t.name}: ${u.want} is not faster than the other arms by a real difference`;
    return `${t.name}: ${u.mismatch.sentence}`;
  });
}

/** A suite's lines for a comparison: one per arm after the first, and each native arm's yardstick sentence. */
export function compareLines(result) {
  const base = result.arms[0];
  const lines = result.differences.map((d) => {
    const arm = result.arms.find((a) => a.name === d.arm);
    const size = formatPercent(arm.size.gzip / base.size.gzip - 1);
    return `${d.arm} vs ${base.name}: time ${timeWords(d)}; gzip size ${size}; verdict ${arm.verdict}`;
  });
  const sentences = (result.native?.arms ?? []).filter((y) => y.sentence).map((y) => `${y.arm}: ${y.sentence}`);
  return [...lines, ...sentences];
}
