// The stated confounds in few words, for the TL;DR and the terminal: a list
// of a hundred hashed import names per arm becomes "imports: A 36, B 42
// (names differ by wasm-bindgen hashes; 6 only in B)". compare.json keeps
// every value whole, and compare.html lists them below the numbers.

// The hash wasm-bindgen appends to an import's name (__wbg_log_1f2e3d4c5b6a7980).
const WBG_HASH = /_[0-9a-f]{16}(?= \(|$)/;
const LONGEST = 60;

const cut = (text) => (text.length > LONGEST ? `${text.slice(0, LONGEST - 1)}…` : text);
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

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
