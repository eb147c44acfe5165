#!/usr/bin/env node
import { EXIT, SoakError, usageError } from '../errors.js';
import { parseCommand } from '../library/parse-command.js';
import { terminalText } from '../library/text.js';
import { COMMANDS } from '../options/schema.js';
import { closest } from '../options/suggest.js';
// wasm-soak command line: resolves the arguments through the option schema
// (src/options/schema.js) and hands them to a command. A command's module loads only
// when it runs, so help and usage errors need neither the addon nor a target.
// Exit codes are documented in README.md.
import { VERSION } from '../version.js';
import { commandHelp, globalHelp } from './help.js';
import { guardStdStreams, settleStdStreams } from './std-streams.js';

const HANDLERS = {
  run: async () => (await import('./commands/run.js')).commandRun,
  soak: async () => (await import('./commands/soak.js')).commandSoak,
  compare: async () => (await import('./commands/compare.js')).commandCompare,
  merge: async () => (await import('./commands/merge.js')).commandMerge,
  report: async () => (await import('./commands/report.js')).commandReport,
  export: async () => (await import('./commands/export.js')).commandExport,
  init: async () => (await import('./commands/init.js')).commandInit,
};

function unknownCommand(command) {
  const near = closest(command, Object.keys(COMMANDS));
  return usageError(
    'WS_EUSAGE',
    `Unknown command "${command}".${near ? ` Did you mean "${near}"?` : ''}`,
    `Commands: ${Object.keys(COMMANDS).join(', ')}. See wasm-soak --help.`,
  );
}

/** `wasm-soak help [command]`. */
function help(command) {
  if (command === undefined) return globalHelp();
  if (!(command in COMMANDS)) throw unknownCommand(command);
  return commandHelp(command);
}

async function main(argv) {
  const [command, ...rest] = argv;
  if (command === undefined) {
    process.stdout.write(`${globalHelp()}\n`);
    return EXIT.USAGE;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${help(rest[0])}\n`);
    return EXIT.OK;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.OK;
  }
  if (!(command in COMMANDS)) throw unknownCommand(command);
  const parsed = parseCommand(command, rest);
  if (parsed.values.help) {
    process.stdout.write(`${commandHelp(command)}\n`);
    return EXIT.OK;
  }
  return (await HANDLERS[command]())(parsed, rest);
}

// A failed write to stdout or stderr never ends the run (std-streams.js).
guardStdStreams();
main(process.argv.slice(2))
  .then(
    (code) => code,
    (err) => {
      if (err instanceof SoakError) {
        process.stderr.write(`wasm-soak: ${terminalText(err.paragraph())}\n`);
        return err.exitCode;
      }
      process.stderr.write(`wasm-soak: internal error: ${terminalText(err.stack ?? err)}\n`);
      return EXIT.FAILED;
    },
  )
  .then(settleStdStreams)
  .then((code) => {
    process.exitCode = code;
  });
