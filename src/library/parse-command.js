// argv to options: the command line's words, parsed against the option
// schema (src/options/schema.js) into the same values a library caller
// passes as an object (src/options/values.js).
import { parseArgs } from 'node:util';
import { usageError } from '../errors.js';
import { PARSE_ARGS } from '../options/argv.js';
import { COMMANDS, optionNamed, optionsOf } from '../options/schema.js';
import { closest } from '../options/suggest.js';

/** " Did you mean --x?" for an unknown option near one of command's, else ''. */
function didYouMean(command, err) {
  const given = /^Unknown option '--([^'=]+)'/.exec(err.message)?.[1];
  const near =
    given &&
    closest(
      given,
      optionsOf(command).map((o) => o.name),
    );
  return near ? ` Did you mean --${near}?` : '';
}

function foreignOption(command, o) {
  return usageError(
    'WS_EUSAGE',
    `${command} does not take --${o.name}; it is an option of ${o.commands.join(', ')}.`,
    `Leave it out; \`wasm-soak help ${command}\` lists the options of ${command}.`,
  );
}

function checkOperands(command, positionals) {
  const { name, min, max } = COMMANDS[command].operand;
  const fix = `Usage: ${COMMANDS[command].usage}`;
  if (positionals.length < min) {
    const needs = min === 1 ? `a ${name}` : `at least ${min} ${name}s, got ${positionals.length}`;
    throw usageError('WS_EUSAGE', `${command} needs ${needs}.`, fix);
  }
  if (positionals.length > max) {
    const most = min === max ? 'one' : max === 1 ? 'at most one' : `at most ${max}`;
    throw usageError(
      'WS_EUSAGE',
      `${command} takes ${most} ${max === 1 ? name : `${name}s`}, got ${positionals.length}: ${positionals.join(' ')}.`,
      fix,
    );
  }
}

/**
 * Parses argv (after the command name) for command. Returns { values,
 * positionals, given }: values holds the parsed value of each option given
 * (by configuration key; defaults are not filled in, see DEFAULTS and
 * runConfig), given each option given as [{ name, argv }] with argv a
 * canonical form that parses back to the same value. Throws a SoakError
 * (exit 2) for an unknown option, one the command does not take, a bad
 * value or a wrong number of operands; with --help, values is { help: true }
 * and only unknown options are errors.
 */
export function parseCommand(command, argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: PARSE_ARGS, allowPositionals: true, strict: true, tokens: true });
  } catch (err) {
    throw usageError(
      'WS_EUSAGE',
      `${err.message.replace(/\. To specify.*$/s, '.')}${didYouMean(command, err)}`,
      `See \`wasm-soak help ${command}\` for the options of ${command}.`,
    );
  }
  // Asking for help is never an error: the help says what was wrong.
  if (parsed.values.help) return { values: { help: true }, positionals: parsed.positionals, given: [] };
  const given = [];
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const o = optionNamed(token.name);
    if (!o.commands.includes(command)) throw foreignOption(command, o);
    given.push({ name: o.name, argv: o.value ? [`--${o.name}=${token.value}`] : [`--${o.name}`] });
  }
  const values = {};
  for (const [name, raw] of Object.entries(parsed.values)) {
    const o = optionNamed(name);
    if (!o.value) values[o.key] = raw;
    else values[o.key] = o.multiple ? raw.map((text) => o.parse(text, name)) : o.parse(raw, name);
  }
  checkOperands(command, parsed.positionals);
  return { values, positionals: parsed.positionals, given };
}
