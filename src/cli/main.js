#!/usr/bin/env node
// wasm-soak command line: parses arguments and calls the library. Exit codes
// are documented in README.md.
import { formatBytes, formatNs } from '../report/format.js';
import { runTarget } from '../run/run.js';
import { VERSION } from '../version.js';
import { exportCsv } from './commands/export.js';
import { EXIT, SoakError, usageError } from './exit-codes.js';
import { parseCommand, runConfig } from './options.js';

const HELP = `wasm-soak ${VERSION}: soak-test a WebAssembly module for leaks, fragmentation and slowdown.

Usage:
  wasm-soak run <module.wasm | scenario.mjs> [options]
  wasm-soak soak [suite.json] [--expect] [options]   run a suite (default soak/suite.json)
  wasm-soak report <result-dir> [--format png,svg,html,md,junit]   re-analyse, re-plot
  wasm-soak export <result-dir> --csv         samples as CSV
  wasm-soak --help | --version

Run options:
  --call NAME[:W],...      export(s) to call, with weights (raw modules)
  --args SPEC              parameter sources: iter, random, random:LO..HI,
                           buf:MIN..MAX (pointer+length via the module's
                           allocator), or an integer; "op=SPEC" for one op
  --alloc ALLOC,FREE       allocator exports for buf arguments
  -n, --iterations N       iterations (default 20000)
  --duration 30m           stop after this long (whichever comes first)
  --seed N                 seed of every random choice (printed; reproduces a run)
  -o, --out DIR            result folder (default soak-results/<name>)
  --warmup N|auto          warm-up iterations excluded from trends (default auto)
  --count-allocs           add a counting pass: allocations and live bytes per call
  --max-allocs-per-call B, --max-bytes-per-call B
                           exact budgets: N, op=N,... or both (imply --count-allocs)
  --time-threshold F       smallest time drift worth a finding (default 0.1)
  --fail-on KINDS          findings that exit 1 (default all; "none")
  --slow-every N, --slow-ms MS   slow-sample cadence (default 1000 / 1000)
  --yield-every N, --yield-ms MS yield to the event loop (default 1000 / 2)
  --ring-records N         ring size in records (default 262144)
  --format LIST            reports to write (default png,svg,html,md,junit)
  --require-plots          exit 3 when figures cannot be drawn
  --json                   print summary.json on stdout
  -q, --quiet              no progress output

Exit codes: 0 ok, 1 a finding, 2 usage or input error, 3 the run failed,
130 interrupted (partial results are kept).`;

function printResult(summary, outDir) {
  const t = summary.time;
  const lines = [
    `${summary.name}: ${summary.status}, ${summary.iterations.completed} iterations, verdict ${summary.verdict}`,
    `  time median ${formatNs(t.early.median)} early → ${formatNs(t.late.median)} late; memory ${formatBytes(summary.memory.start)} → ${formatBytes(summary.memory.end)} (${summary.memory.growthEvents} growth events)`,
  ];
  for (const f of summary.findings ?? []) lines.push(`  ${f.kind}: ${f.sentence}`);
  if (summary.error)
    lines.push(`  error at iteration ${summary.error.iteration} (${summary.error.op}): ${summary.error.message}`);
  lines.push(`  results: ${outDir}  (reproduce: ${summary.reproduce})`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function commandRun(argv) {
  const { values, positionals } = parseCommand(argv);
  if (values.help) return void process.stdout.write(`${HELP}\n`);
  if (positionals.length !== 1) {
    throw usageError(
      'WS_EUSAGE',
      positionals.length ? `run takes one target, got ${positionals.length}.` : 'run needs a target.',
      'Usage: wasm-soak run <module.wasm | scenario.mjs> [options]',
    );
  }
  const cfg = runConfig(values);
  cfg.out = values.out;
  const { exitCode, summary, outDir } = await runTarget(positionals[0], cfg, ['run', ...argv]);
  if (cfg.requirePlots && summary.outputs?.plotsSkipped) {
    process.stderr.write(
      `wasm-soak: --require-plots: ${summary.outputs.plotsSkipped}\nInstall gnuplot (apt-get install gnuplot-nox); gnuplot's messages are in ${outDir}/gnuplot-stderr.txt.\n`,
    );
  }
  if (summary.sources?.countingPass?.status === 'failed') {
    process.stderr.write(
      `wasm-soak: the counting pass failed: ${summary.sources.countingPass.error?.message ?? 'unknown error'}\n`,
    );
  }
  if (cfg.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else if (!cfg.quiet) printResult(summary, outDir);
  return exitCode;
}

async function commandExport(argv) {
  const { values, positionals } = parseCommand(argv, { csv: { type: 'boolean' } });
  if (positionals.length !== 1 || !values.csv) {
    throw usageError(
      'WS_EUSAGE',
      'export needs a result folder and --csv.',
      'Usage: wasm-soak export <result-dir> --csv',
    );
  }
  const written = await exportCsv(positionals[0]);
  process.stdout.write(`${written.join('\n')}\n`);
  return EXIT.OK;
}

async function main(argv) {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${HELP}\n`);
    return command === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.OK;
  }
  if (command === 'run') return commandRun(rest);
  if (command === 'export') return commandExport(rest);
  if (command === 'soak') return (await import('./commands/soak.js')).commandSoak(rest);
  if (command === 'report') return (await import('./commands/report.js')).commandReport(rest);
  throw usageError(
    'WS_EUSAGE',
    `Unknown command "${command}".`,
    'Commands: run, soak, export, report. See wasm-soak --help.',
  );
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    if (err instanceof SoakError) {
      process.stderr.write(`wasm-soak: ${err.paragraph()}\n`);
      process.exitCode = err.exitCode;
    } else {
      process.stderr.write(`wasm-soak: internal error: ${err.stack ?? err}\n`);
      process.exitCode = EXIT.FAILED;
    }
  },
);
