// Compiles against the published types (tsc --noEmit, `npm run typecheck`):
// the README's uses of the library, and misuses that must not compile.
import {
  analyze,
  EXIT,
  type Op,
  readRun,
  type Scenario,
  type ScenarioContext,
  SoakError,
  soak,
  type Summary,
  version,
  writeReports,
} from 'wasm-soak';

async function uses(): Promise<void> {
  const summary: Summary = await soak({ module: 'lib.wasm', call: 'step', iterations: 20000, seed: 1 });
  if (summary.verdict === 'leak' && summary.exitCode === EXIT.FINDING) console.log(summary.findings[0].sentence);
  await soak({ bytes: new Uint8Array(8), call: ['parse:5', 'reset:1'], duration: '30s', countAllocs: true });
  await soak({ scenario: new URL('file:///s.mjs'), out: 'results', format: ['md', 'junit'], signal: AbortSignal.timeout(1000) });
  const logs = readRun('results');
  const again = analyze({ ...logs, cfg: { timeThreshold: 0.2 } });
  const written: Summary = await writeReports('again', again, { formats: ['html'] });
  console.log(written.status, version, new SoakError('WS_X', 'x').paragraph());
  // What they return, as test/e2e/library.test.js checks at run time.
  const undecided =
    summary.verdict === 'inconclusive' || summary.verdict === 'error' || summary.verdict === 'memory-exhausted';
  const cap: number | null = summary.samples.capBytes;
  const elapsed: Float32Array = logs.timed.elapsed;
  const live: Float64Array | undefined = logs.counted?.live;
  const files: string | null | undefined = again.summary.outputs?.countLog;
  console.log(undecided, cap, elapsed, live, files, summary.tool.version, summary.inconclusive.length);
  await soak({ module: 'lib.wasm', maxLogBytes: '64M' });
}
void uses;

// @ts-expect-error a target is required
void soak({ call: 'step' });
// @ts-expect-error no such option
void soak({ module: 'a.wasm', iteratons: 5 });
// @ts-expect-error iterations is a number
void soak({ module: 'a.wasm', iterations: '5' });
// @ts-expect-error no such report format
void writeReports('d', {} as never, { formats: ['pdf'] });

// A scenario, typed: its state flows from setup() to the ops.
const scenario: Scenario<{ n: number }> = {
  name: 'typed',
  setup: (ctx: ScenarioContext) => ({ n: ctx.int(1, 9) }),
  ops: { step: { weight: 2, run: (state, ctx) => state.n + ctx.bytes(4).length } } satisfies Record<string, Op<{ n: number }>>,
};
void scenario;
async function readsSummary(): Promise<void> {
  const s: Summary = await soak({ module: 'lib.wasm' });
  const grew: string | undefined = s.growthAttribution?.[0]?.op;
  const perOp: number | undefined = s.ops?.[0]?.time.late.median;
  const classes: number | undefined = s.census?.classes.length;
  const live: string | null | undefined = s.sources?.liveBytes;
  const complete: boolean | undefined = s.allocations?.complete;
  console.log(grew, perOp, classes, live, complete);
}
void readsSummary;
// @ts-expect-error module and scenario are exclusive
void soak({ module: 'a.wasm', scenario: 's.mjs' });
// @ts-expect-error a scenario has iteration or ops, not both
const both: Scenario = { setup: () => 0, iteration: () => 0, ops: {} };
void both;
