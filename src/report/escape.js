// The escapers of text a module or scenario controls, one place for every
// format: markup (HTML, SVG, XML), Markdown and the terminal. The one escaper
// of markup: text for HTML, SVG and XML, as content or as
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

// Characters that act rather than show: C0 and C1 controls and DEL (a
// terminal's ESC sequences, BEL, NUL), the line and paragraph separators,
// and the bidirectional overrides that reorder what a reader sees.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters made visible.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const SHORT_ESCAPES = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * s (any value; null and undefined are empty) with every control character
 * written visibly, as JavaScript writes it in a string (\n, \t, \x1b,
 * \u202e), so that text a module or scenario controls (an export name, an
 * error message) prints as the characters it holds and never moves the
 * cursor, retitles the terminal or rings its bell.
 */
export const visible = (s) =>
  String(s ?? '').replace(CONTROLS, (c) => {
    const n = c.charCodeAt(0);
    return SHORT_ESCAPES[c] ?? (n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16)}`);
  });

/**
 * s as Markdown text (GitHub's, where inline HTML renders): inert, read as
 * the plain text it is, on one line and safe in a table cell. Line breaks
 * become spaces, other controls are written visibly, Markdown's syntax is
 * backslash-escaped (a block marker only where it starts the text) and
 * markup becomes character references.
 */
export const escapeMarkdown = (s) =>
  escapeContent(
    visible(String(s ?? '').replace(/\r?\n/g, ' '))
      .replace(/[\\`*_[\]~|]/g, '\\$&')
      .replace(/^(\s*)([#>+=-]|\d+(?=[.)](?:\s|$)))/, (_all, space, mark) =>
        /\d/.test(mark) ? `${space}${mark}\\` : `${space}\\${mark}`,
      ),
  );

/** The backtick run that fences text: one longer than any run inside it (at least min). */
const fenceFor = (text, min) => '`'.repeat(Math.max(min, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));

/** s as one Markdown code span: visible controls, on one line, fenced so that no backtick inside closes it. */
export function markdownCode(s) {
  const text = visible(String(s ?? '').replace(/\r?\n/g, ' '));
  const fence = fenceFor(text, 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * lines (strings, each one line or more) as a fenced Markdown code block
 * (info: its language, or ''): controls written visibly, the fence longer
 * than any backtick run inside. Returns its lines.
 */
export function markdownBlock(lines, info = '', indent = '') {
  const body = lines.flatMap((l) => String(l ?? '').split(/\r?\n/)).map(visible);
  const fence = fenceFor(body.join('\n'), 3);
  return [`${indent}${fence}${info}`, ...body.map((l) => `${indent}${l}`), `${indent}${fence}`];
}

/**
 * s as terminal text: its line breaks kept, every other control character
 * written visibly (visible), so that a message naming what a module or a
 * scenario controls never acts on the terminal it is printed to.
 */
export const terminalText = (s) =>
  String(s ?? '')
    .split('\n')
    .map(visible)
    .join('\n');
