// The one escaper of markup: text for HTML, SVG and XML, as content or as
// an attribute value. Drops the characters XML 1.0 cannot carry (HTML shows
// none of them) and writes &, <, >, " and ' as character references.

// biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters; they are removed.
const UNCARRIED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** An escaper that removes UNCARRIED and writes the characters of special as references. */
const escaperOf = (special) => (s) =>
  String(s ?? '')
    .replace(UNCARRIED, '')
    .replace(special, (c) => `&#${c.charCodeAt(0)};`);

/** s (any value; null and undefined are empty) as markup text. */
export const escapeMarkup = escaperOf(/[&<>"']/g);

/**
 * s as markup content only (between tags, never an attribute value): quotes
 * stay themselves, so that a Markdown file reads the same raw and rendered.
 */
export const escapeContent = escaperOf(/[&<>]/g);
