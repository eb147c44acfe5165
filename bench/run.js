// `npm run bench`: every benchmark, one after the other, each printing its
// own side-by-side figures: the runner's per-iteration overhead, the trend
// analysis of 1 M samples (statistics alone, then the whole log-to-summary
// analysis), `report` of a 10 M-call log against decoding it alone and of a
// 100 M-call log (quiet and loaded, its peak RSS), the
// progress line's preliminary verdict on a 10 s run,
// plotting 10 M samples, the heap census on 5 M chunks, the counting pass's
// memory.grow rewrite, the cost of allocation sites against the counting
// pass without them (the instrumented calls alone, then whole runs with
// --sites against the same runs without it), the glue's objects counted and the held samples
// (bench/objects.js), --time-split's accuracy (the allocator swap against
// the stamped allocator part on the allocator fixtures, the four parts
// against the timed call on a Rust and an Emscripten package), the time
// gate's accuracy up to 1 M calls, a working set's wander against the
// memory verdicts (bench/wander.js: the second run with another seed), the
// library's peak RSS with and without `out` (its log on disk or in memory),
// and a self-soak: 10 M calls through the
// harness, whose own memory must stay flat.
//
// A line with a target ends in `ok` or `MISSED`. After the last benchmark
// the missed lines are listed again (with a line without a verdict, and a
// benchmark that failed), and the exit status is 1 when there is any.
import { spawn } from 'node:child_process';

const benches = [
  ['bench/runner.js'],
  ['--expose-gc', 'bench/verdict.js'],
  ['bench/analysis.js'],
  ['bench/report.js'],
  ['bench/live.js'],
  ['bench/plot.js'],
  ['bench/census.js'],
  ['bench/grow.js'],
  ['bench/sites.js'],
  ['bench/sites-run.js'],
  ['bench/objects.js'],
  ['bench/time-split.js'],
  ['bench/accuracy.js'],
  ['bench/wander.js'],
  ['bench/library-memory.js'],
  ['bench/self-soak.js'],
];

/** What one output line says of its target: 'missed', 'no verdict', or null (met, or no target). */
function targetProblem(line) {
  if (/\bMISSED\b/.test(line)) return 'missed';
  if (/\(target\b/.test(line) && !/\bok\b/.test(line)) return 'no verdict';
  return null;
}

/** Runs node with args, echoing its output; resolves to { status, problems } (the lines targetProblem flags). */
function runBench(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const problems = [];
    let pending = '';
    const scan = (text) => {
      for (const line of text.split('\n')) {
        const problem = targetProblem(line);
        if (problem) problems.push(problem === 'missed' ? line.trim() : `${line.trim()} (no ok or MISSED)`);
      }
    };
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      const text = pending + chunk.toString('utf8');
      const end = text.lastIndexOf('\n');
      pending = text.slice(end + 1);
      scan(text.slice(0, end + 1));
    });
    child.on('close', (status, signal) => {
      scan(pending);
      resolve({ status: signal ? 128 : status, problems });
    });
  });
}

const missed = [];
for (const args of benches) {
  const name = args.at(-1);
  const { status, problems } = await runBench(args);
  for (const line of problems) missed.push(`${name}: ${line}`);
  if (status !== 0 && problems.length === 0) missed.push(`${name}: failed (exit status ${status})`);
}
console.log('');
if (missed.length) {
  console.log(`MISSED: ${missed.length} target${missed.length === 1 ? '' : 's'}`);
  for (const line of missed) console.log(`  ${line}`);
} else {
  console.log('every target met');
}
process.exitCode = missed.length ? 1 : 0;
