// Help text, generated from the option schema (src/options/schema.js): the global help
// lists the commands, a command's help its usage and every option it takes.

import { formatCount } from '../library/text.js';
import { tryAddon } from '../native.js';
import { COMMANDS, DEFAULT_SLOW_SAMPLES, defaultText, flagOf, optionsOf } from '../options/schema.js';
import { VERSION } from '../version.js';

const WIDTH = 80;
const COLUMN = 27; // where an option's description starts

const EXIT_CODES = `Exit codes: 0 ok, 1 a finding, 2 usage or input error, 3 the run failed,
130 interrupted (partial results are kept).`;

/** Breaks text into lines of at most WIDTH columns, the first after `first` columns, the rest indented. */
function wrap(text, first, indent) {
  const lines = [];
  let line = '';
  let room = WIDTH - first;
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
      room = WIDTH - indent;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

function optionLine(o, command) {
  const flag = `  ${flagOf(o, { short: true, value: true })}`;
  const help = typeof o.help === 'string' ? o.help : o.help[command];
  const shown = defaultText(o, command);
  const text = shown ? `${help} (default ${shown})` : help;
  if (flag.length >= COLUMN - 1) return `${flag}\n${' '.repeat(COLUMN)}${wrap(text, COLUMN, COLUMN)}`;
  return `${flag.padEnd(COLUMN)}${wrap(text, COLUMN, COLUMN)}`;
}

// The shortest run that can decide, from C's own limits (read from the
// addon when it is built, so that help works without it): the sampled series
// need memMinPoints slow samples after a warm-up of up to a
// 1/warmupCapDivisor of the run, the time test timeMinCalls calls.
function decidesText() {
  const c = tryAddon()?.constants;
  if (!c)
    return 'Verdicts: too short a run is inconclusive, with what would decide it (build the addon to see the limits).';
  const cap = c.warmupCapDivisor;
  const after = (n) => Math.ceil((n * cap) / (cap - 1));
  return (
    `Verdicts: the shortest run that can decide is about ${formatCount(after(c.timeMinCalls))} calls: the time test ` +
    `needs ${formatCount(c.timeMinCalls)} calls after a warm-up of at most 1/${cap} of the run; the memory series ` +
    `need ${c.memMinPoints} slow samples after it (the default --slow-every, ${DEFAULT_SLOW_SAMPLES} per run, gives any ` +
    `run about ${formatCount(Math.floor((DEFAULT_SLOW_SAMPLES * (cap - 1)) / cap))}; with --slow-every S, a run of about ` +
    `${formatCount(after(c.memMinPoints))} × S calls); a large late step of linear memory needs a plateau as long as ` +
    'the run before it, or live bytes (--count-allocs). Until then the verdict is inconclusive, with what would ' +
    'decide it; it exits 0 unless --fail-on names inconclusive.'
  );
}

/** The help of one command: usage, what it does, its options. */
export function commandHelp(command) {
  const c = COMMANDS[command];
  const judges = optionsOf(command).some((o) => o.name === 'fail-on');
  return [
    wrap(`Usage: ${c.usage}`, 0, 9),
    '',
    wrap(c.about, 0, 0),
    '',
    'Options:',
    ...optionsOf(command).map((o) => optionLine(o, command)),
    '',
    ...(judges ? [wrap(decidesText(), 0, 0), ''] : []),
    EXIT_CODES,
  ].join('\n');
}

/** The global help: every command (what it does, then its usage), and where to find its options; 80 columns. */
export function globalHelp() {
  const names = Object.keys(COMMANDS);
  const column = Math.max(...names.map((n) => n.length)) + 4;
  return [
    wrap(`wasm-soak ${VERSION}: soak-test a WebAssembly module for leaks, fragmentation and slowdown.`, 0, 0),
    '',
    'Usage: wasm-soak <command> [operands] [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(
      ([name, c]) => `  ${name.padEnd(column - 2)}${wrap(c.summary, column, column)}
${' '.repeat(column)}${wrap(c.usage, column, column + 2)}`,
    ),
    `  ${'help'.padEnd(column - 2)}wasm-soak help [command] | --help | --version`,
    '',
    'The options of a command: wasm-soak help <command>, or wasm-soak <command> -h.',
    '',
    EXIT_CODES,
  ].join('\n');
}
