// The one escaper of markup: text for HTML, SVG and XML, as content or as
// an attribute value. Drops the characters XML 1.0 cannot carry (HTML shows
// none of them) and writes &, <, >, " and ' as character references.

// biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters; they are removed.
const UNCARRIED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** s (any value; null and undefined are empty) as markup text. */
export const escapeMarkup = (s) =>
  String(s ?? '')
    .replace(UNCARRIED, '')
    .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
