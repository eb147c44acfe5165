// The command-line form of the options (src/options/schema.js): how each
// option is spelled in argv, for the CLI's parser (src/library/parse-command.js),
// for the reproduce commands the reports print, and for the command line
// that reproduces a library run.
import { parseArgs } from 'node:util';
import { parseDuration, parseTimeout } from './parsers.js';
import { OPTIONS } from './schema.js';

// parseArgs knows every option, so that one a command does not take is
// named as such rather than as unknown.
export const PARSE_ARGS = Object.fromEntries(
  OPTIONS.map((o) => [
    o.name,
    {
      type: o.value ? 'string' : 'boolean',
      ...(o.short ? { short: o.short } : {}),
      ...(o.multiple ? { multiple: true } : {}),
    },
  ]),
);

/**
 * argv (a command line after the command name) without the options names
 * lists (long names), however each was spelled (`-n 5`, `--iterations 5`,
 * `--iterations=5`); every other argument as it was.
 */
export function withoutOptions(argv, names) {
  const { tokens } = parseArgs({
    args: argv,
    options: PARSE_ARGS,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const dropped = new Set();
  for (const t of tokens) {
    if (t.kind !== 'option' || !names.includes(t.name)) continue;
    dropped.add(t.index);
    if (t.value !== undefined && !t.inlineValue) dropped.add(t.index + 1);
  }
  return argv.filter((_, i) => !dropped.has(i));
}

// The options that a negating one turns off (--block-contents).
const NEGATED = new Set(OPTIONS.filter((o) => o.negates).map((o) => o.negates));

/**
 * The canonical argv of one option's value as the library or a suite holds
 * it (a number for a duration or timeout is milliseconds; a list of a
 * comma-separated option is joined): [] for an absent, false or empty value,
 * but the negating form for false when the option has one.
 */
export function argvOf(o, value) {
  if (value === false && NEGATED.has(o.name)) return [`--no-${o.name}`];
  if (value === undefined || value === null || value === false || (Array.isArray(value) && !value.length)) return [];
  if (!o.value) return [`--${o.name}`];
  return textsOf(o, value).map((text) => `--${o.name}=${text}`);
}

/**
 * The text(s) an option's parser reads for a value given as an object's
 * property: one per value of a repeatable option, a list joined by commas,
 * a number of milliseconds for a duration or timeout as "Nms".
 */
export function textsOf(o, value) {
  const ms = o.parse === parseDuration || o.parse === parseTimeout;
  const text = (v) => (typeof v === 'number' && ms && v !== 0 ? `${v}ms` : String(v));
  if (o.multiple) return [value].flat().map(text);
  return [Array.isArray(value) ? value.join(',') : text(value)];
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters a plain shell quote cannot show.
const UNQUOTABLE = /[\u0000-\u001f\u007f-\u009f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: what $'…' writes escaped: those, a backslash and a quote.
const ANSI_C_ESCAPED = /[\\'\u0000-\u001f\u007f-\u009f]/g;

/**
 * arg as one word of a POSIX shell command line: bare when it is plain,
 * else in single quotes; one with a control character (an export named
 * with an ESC, a newline) in $'…' with the character as \xNN, so that the
 * command pasted back runs with the same argument and never prints the
 * character raw.
 */
export function shellQuote(arg) {
  const text = String(arg);
  if (/^[\w@%+=:,./-]+$/.test(text)) return text;
  if (!UNQUOTABLE.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  const escaped = text.replace(ANSI_C_ESCAPED, (c) =>
    c === '\\' || c === "'" ? `\\${c}` : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return `$'${escaped}'`;
}

/** argv as one POSIX shell command line, each argument quoted by shellQuote. */
export const shellLine = (argv) => argv.map(shellQuote).join(' ');
