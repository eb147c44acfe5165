// `wasm-soak run TARGET`: one soak run, its result folder and a short report
// on stdout.

import { runWithBaseline } from '../../library/run-target.js';
import { runConfig } from '../../options/schema.js';
import { baselineLines } from '../../report/baseline-words.js';
import { terminalText } from '../../report/escape.js';
import { formatBytes, formatCount, formatNs } from '../../report/format.js';
import { orderedFindings } from '../../report/lead.js';
import { nextSteps } from '../../report/next-steps.js';
import { earlyStopWords } from '../../report/progress-words.js';
import { targetFrames } from '../../report/stack.js';
import { modulesText } from '../../report/tables.js';
import { blocksHintLine, describeFailure, noteLines, undecidedLines, verdictLine } from '../../report/words.js';
import { colourOn, paint } from '../colour.js';
import { noteResultFolder } from '../std-streams.js';

// The verdict first, then its findings and the next step, then the numbers.
function printResult(summary, outDir) {
  const t = summary.time;
  const v = verdictLine(summary);
  const tone = v.ok ? 'ok' : v.unsure ? 'unsure' : 'bad';
  const title = paint(v.title, tone, colourOn(process.stdout));
  // What the module and the scenario control (names, messages) is shown, never acted on (escape.js).
  const lines = [
    `${terminalText(summary.name)}: ${title}${summary.findings?.length ? '' : ` — ${terminalText(v.text)}`}`,
  ];
  // A hung call is told by the error line.
  for (const f of orderedFindings(summary)) {
    if (f.kind === 'hung-call') continue;
    lines.push(`  ${f.kind}: ${f.sentence}`);
    const hint = blocksHintLine(f);
    if (hint) lines.push(`    ${hint}`);
  }
  for (const line of undecidedLines(summary)) lines.push(`  inconclusive, ${line}`);
  for (const line of noteLines(summary)) lines.push(`  note: ${line}`);
  if (summary.earlyStop) lines.push(`  ended early: ${earlyStopWords(summary.earlyStop)}`);
  for (const x of nextSteps(summary).slice(0, -1))
    lines.push(`  next: ${x.text}${x.command ? `\n    ${x.command}` : ''}`);
  lines.push(
    `  ${summary.status}, ${formatCount(summary.iterations.completed)} iterations, verdict ${summary.verdict}`,
    `  time median ${formatNs(t.early.median)} early → ${formatNs(t.late.median)} late; memory ${formatBytes(summary.memory.start)} → ${formatBytes(summary.memory.end)} (${formatCount(summary.memory.growthEvents)} growth events)`,
  );
  const modules = summary.target?.module ? null : modulesText(summary);
  if (modules) lines.push(`  modules: ${modules}`);
  if (summary.error) {
    lines.push(`  error ${describeFailure(summary.error)}`);
    for (const frame of targetFrames(summary.error)) lines.push(`    ${frame}`);
  }
  if (summary.baseline) lines.push(...baselineLines(summary.baseline).map((l) => `  ${l}`));
  if (summary.outputs?.plotsSkipped) lines.push(`  figures: ${summary.outputs.plotsSkipped}`);
  if (summary.interrupted?.cutShort?.length)
    lines.push(
      `  interrupted during the ${summary.interrupted.during}: cut short: ${summary.interrupted.cutShort.join(', ')}`,
    );
  lines.push(`  results: ${outDir}  (reproduce: ${nextSteps(summary).at(-1).command})`);
  process.stdout.write(`${[lines[0], ...lines.slice(1).map(terminalText)].join('\n')}\n`);
}

/** Runs the target of parseCommand('run', argv); resolves the exit code. */
export async function commandRun({ values, positionals }, argv) {
  const cfg = runConfig(values);
  const run = await runWithBaseline(positionals[0], cfg, argv, { file: positionals[0] });
  const { exitCode, summary, outDir, savedBaseline: saved } = run;
  noteResultFolder(outDir);
  if (saved && !cfg.quiet && !cfg.json) process.stderr.write(`wasm-soak: baseline saved: ${saved}\n`);
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
  // -q and --json silence the report, never the error of a failed run.
  if (summary.status === 'failed' && (cfg.quiet || cfg.json))
    process.stderr.write(
      `wasm-soak: ${terminalText(`${summary.name}: failed, verdict error ${describeFailure(summary.error)}`)}\n`,
    );
  if (cfg.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else if (!cfg.quiet) printResult(summary, outDir);
  return exitCode;
}
