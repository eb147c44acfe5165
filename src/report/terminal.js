// The terminal's report of one run (`wasm-soak run`; the formats table's
// `terminal` row, src/options/formats.js): the verdict first, then its
// findings and the next step, then the numbers, on stdout; on stderr what
// must reach a person even under -q or --json (a failed run's error, a
// saved baseline, figures that were required, a counting pass that failed).
// What the module and the scenario control (names, messages) is shown,
// never acted on (escape.js).
import { baselineLines } from './baseline-words.js';
import { colourOn, paint } from './colour.js';
import { terminalText } from './escape.js';
import { formatBytes, formatCount, formatNs } from './format.js';
import { orderedFindings } from './lead.js';
import { nextSteps } from './next-steps.js';
import { earlyStopWords } from './progress-words.js';
import { targetFrames } from './stack.js';
import { modulesText, threadsText } from './tables.js';
import { blocksHintLine, describeFailure, noteLines, undecidedLines, verdictLine } from './words.js';

/** The short report of summary, whose result folder is dir, as lines; colour: paint the verdict. */
export function terminalLines(dir, summary, { colour = false } = {}) {
  const t = summary.time;
  const v = verdictLine(summary);
  const tone = v.ok ? 'ok' : v.unsure ? 'unsure' : 'bad';
  const title = paint(v.title, tone, colour);
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
  if (summary.sources?.threads) lines.push(`  threads: ${threadsText(summary.sources.threads)}`);
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
  lines.push(`  results: ${dir}  (reproduce: ${nextSteps(summary).at(-1).command})`);
  return [lines[0], ...lines.slice(1).map(terminalText)];
}

/** The stderr lines of a run (see above): savedBaseline the baseline file written, or null; cfg the run's. */
function stderrLines(dir, summary, { cfg, savedBaseline }) {
  const lines = [];
  if (savedBaseline && !cfg.quiet && !cfg.json) lines.push(`wasm-soak: baseline saved: ${savedBaseline}`);
  if (cfg.requirePlots && summary.outputs?.plotsSkipped)
    lines.push(
      `wasm-soak: --require-plots: ${summary.outputs.plotsSkipped}\nInstall gnuplot (apt-get install gnuplot-nox); gnuplot's messages are in ${dir}/gnuplot-stderr.txt.`,
    );
  if (summary.sources?.countingPass?.status === 'failed')
    lines.push(
      `wasm-soak: the counting pass failed: ${summary.sources.countingPass.error?.message ?? 'unknown error'}`,
    );
  // -q and --json silence the report, never the error of a failed run.
  if (summary.status === 'failed' && (cfg.quiet || cfg.json))
    lines.push(
      `wasm-soak: ${terminalText(`${summary.name}: failed, verdict error ${describeFailure(summary.error)}`)}`,
    );
  return lines;
}

/**
 * Writes the terminal's report of summary (its result folder dir): context
 * { stdout, stderr (streams), cfg (the run's: quiet, json, requirePlots),
 * savedBaseline }. -q writes no report, --json the summary instead.
 */
export async function write(
  dir,
  summary,
  { stdout = process.stdout, stderr = process.stderr, cfg = {}, savedBaseline = null } = {},
) {
  for (const line of stderrLines(dir, summary, { cfg, savedBaseline })) stderr.write(`${line}\n`);
  if (cfg.json) stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else if (!cfg.quiet) stdout.write(`${terminalLines(dir, summary, { colour: colourOn(stdout) }).join('\n')}\n`);
}
