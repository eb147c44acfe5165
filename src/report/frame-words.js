// A leak's headline names where the growing bytes were allocated in a few
// words: the export that was called (or, without one, the innermost frame
// with a name) and at most two more frames, each long demangled name
// shortened (Rust's and C++'s paths to their last segment, generics and
// parameter lists elided, Rust's hash dropped). The whole stack, full
// names and all, stays in the sites table, the flame graph and the exports.

/** A frame name a stripped build leaves: func[N]. */
const UNNAMED = /^func\[\d+\]$/;
/** Rust's legacy mangling hash at the end of a demangled name. */
const RUST_HASH = /::h[0-9a-f]{16}$/;
/** Names up to this long are shown whole. */
const SHORT = 40;

/** text with each balanced open…close group that follows a word character replaced by open…close. */
function elide(text, open, close) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === open && /[\w$]/.test(text[i - 1] ?? '') && text.indexOf(close, i) > i + 1) {
      let depth = 0;
      let j = i;
      for (; j < text.length; j++) {
        if (text[j] === open) depth++;
        else if (text[j] === close && --depth === 0) break;
      }
      if (j >= text.length) return out + text.slice(i); // unbalanced: keep the rest as it is
      out += `${open}…${close}`;
      i = j;
    } else out += c;
  }
  return out;
}

/**
 * name shortened for a sentence when it is long: Rust's hash dropped, every
 * path cut to its last segment (alloc::raw_vec::RawVec → RawVec), generic
 * arguments and C++ parameter lists elided (RawVec<…>::grow_one,
 * basic_string<…>::append(…)). A name of SHORT characters or fewer comes
 * back whole.
 */
export function shortFrameName(name) {
  if (name.length <= SHORT) return name;
  let s = name.replace(RUST_HASH, '');
  s = s.replace(/(?:[A-Za-z_][\w$]*::)+(?=[A-Za-z_~])/g, '');
  s = elide(s, '<', '>');
  s = elide(s, '(', ')');
  return s;
}

/**
 * The frames a headline names, innermost first: { frames: [{ name
 * (shortened), full, skipped (frames left out before this one) }], after
 * (frames left out after the last), exported (the last is the export) }. frames: a site's, innermost
 * first, each { name, from } (from 'export' or 'JS glue' for the export the
 * host called). With an export frame: the outermost one and up to two
 * named frames inside it (the innermost first), or the innermost frame when
 * none inside has a name. Else the innermost named frame and up to two
 * named frames outside it. Without any name: the innermost and the
 * outermost frame.
 */
export function headlineFrames(frames) {
  if (frames.length === 0) return [];
  const named = (f) => !UNNAMED.test(f.name);
  const exported = frames.findLastIndex((f) => f.from === 'export' || f.from === 'JS glue');
  const innermost = frames.findIndex(named);
  let picked;
  if (exported >= 0) {
    const inside = [];
    for (let i = 0; i < exported && inside.length < 2; i++) if (named(frames[i])) inside.push(i);
    if (inside.length === 0 && exported > 0) inside.push(0);
    picked = [...inside, exported];
  } else if (innermost >= 0) {
    picked = [innermost];
    for (let i = innermost + 1; i < frames.length && picked.length < 3; i++) if (named(frames[i])) picked.push(i);
  } else picked = [...new Set([0, frames.length - 1])];
  const out = [];
  let last = -1;
  for (const i of picked) {
    out.push({ name: shortFrameName(frames[i].name), full: frames[i].name, skipped: i - last - 1 });
    last = i;
  }
  return { frames: out, after: frames.length - 1 - last, exported: exported >= 0 };
}

/**
 * A site's stack as a headline says it, each name in backticks and '…'
 * where frames are left out: the export first when there is one, then the
 * frames inside it, innermost first ("`compress`, at `RawVec<…>::grow_one`
 * ← … ← `compress_into_vec`"); else innermost first ("`copy_string` ←
 * `intern_header` ← …").
 */
export function headlineStack(frames) {
  const { frames: shown, after, exported } = headlineFrames(frames);
  const chain = (list, end) => {
    const parts = [];
    for (const f of list) {
      if (f.skipped > 0) parts.push('…');
      parts.push(`\`${f.name}\``);
    }
    if (end > 0) parts.push('…');
    return parts.join(' ← ');
  };
  if (!exported) return chain(shown, after);
  const entry = shown.at(-1);
  // Inside the export, the gaps before the first and after the last shown frame go without saying.
  const inside = shown.slice(0, -1).map((f, i) => (i === 0 ? { ...f, skipped: 0 } : f));
  return inside.length ? `\`${entry.name}\`, at ${chain(inside, 0)}` : `\`${entry.name}\``;
}

/**
 * The full names behind the shortened ones of sites (sitesSummary's
 * growing sites), Map short → full, for a title to show on hover.
 */
export function fullFrameNames(sites) {
  const out = new Map();
  for (const s of sites ?? []) {
    for (const f of s.frames ?? []) {
      const short = shortFrameName(f.name);
      if (short !== f.name) out.set(short, f.name);
    }
  }
  return out;
}
