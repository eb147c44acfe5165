// Types of the wasm-soak library (src/index.js). Hand-written; checked in
// CI by `npm run typecheck` (tsc --noEmit over test/types/).

/** Exit codes (README "Exit codes"); a summary's exitCode is one of them. */
export declare const EXIT: Readonly<{ OK: 0; FINDING: 1; USAGE: 2; FAILED: 3; INTERRUPTED: 130 }>;

/** The package version. */
export declare const version: string;

/** An error meant for the user: message names the problem, fix says what to do. */
export declare class SoakError extends Error {
  constructor(code: string, message: string, options?: { fix?: string; exitCode?: number; cause?: unknown });
  /** A stable WS_* name. */
  code: string;
  fix: string;
  /** One of EXIT: 2 for bad input, 3 when the target could not run. */
  exitCode: number;
  /** The problem, then the fix. */
  paragraph(): string;
}

/** A summary's finding kinds, most severe first (C's WS_FINDING_KINDS that name a verdict), and a hung call's. */
export type FindingKind =
  | 'memory-exhausted'
  | 'stack-drift'
  | 'leak'
  | 'unfreed-objects'
  | 'fragmentation'
  | 'growth'
  | 'js-heap-growth'
  | 'slowdown'
  | 'budget'
  | 'hung-call';
/**
 * The most severe finding's kind; "stable" without one, "inconclusive" when
 * the data could not decide, "error" for a failed run (docs/summary.md).
 */
export type Verdict = Exclude<FindingKind, 'hung-call'> | 'stable' | 'inconclusive' | 'error';

export interface Finding {
  kind: FindingKind;
  /** One sentence for people: what was found, how much, what it means. */
  sentence: string;
  series?: string;
  window?: { from: number; to: number };
  slope?: { perKiloIterations: number; low: number; high: number; unit: string };
  pValue?: number;
  effect?: { relative: number; low: number; high: number };
  projection?: { limitBytes: number; iterations: number; wallMs: number } | null;
  op?: string | null;
  iteration?: number | null;
  value?: number;
  limit?: number;
  /** Leak and growth findings read from the heap census: a few blocks allocated after warm-up in the sizes that accumulate (docs/summary.md, "findings"). */
  blocks?: LeakedBlock[];
  /** unfreed-objects: the classes whose objects the application never freed; lost when no finalizer returned their memory. */
  classes?: ObjectClassNamed[];
  lost?: boolean;
  /** A leak of live bytes: the classes whose objects are still held at the end. */
  objects?: ObjectClassNamed[];
  [field: string]: unknown;
}

/** A class of the glue's objects as a finding or note names it: counts after warm-up, and the op that made most. */
export interface ObjectClassNamed {
  name: string;
  created: number;
  freed: number;
  reclaimed: number;
  collected: number;
  held: number;
  op: string | null;
}

/** The glue's objects of one class over the run (docs/summary.md, "objects"). */
export interface ObjectClass {
  name: string;
  /** Registered with a FinalizationRegistry by its glue. */
  registry: boolean;
  /** The application can free it (an unregister token, or a free method). */
  freeable: boolean;
  created: number;
  /** By the application: free(), delete(), destroy() or the glue's unregister. */
  freed: number;
  /** By the garbage collector: the glue's finalizer ran. */
  reclaimed: number;
  /** Collected with no free and no finalizer: its memory is never returned. */
  collected: number;
  /** Neither freed nor collected at the end. */
  held: number;
  createdBy: { op: string | null; count: number }[];
  afterWarmup: { created: number; freed: number; reclaimed: number; collected: number; held: number };
}

/** A block in use at the end and not at the mark after warm-up: its first bytes. */
export interface LeakedBlock {
  address: number;
  size: number;
  fromBytes: number;
  toBytes: number;
  /** Its first bytes (at most 64), two hex digits each. */
  hex: string;
  /** The same bytes as text: printable ASCII as is, any other byte as ".". */
  text: string;
}

export interface TimeWindow {
  from: number;
  to: number;
  n: number;
  median: number;
  p90: number;
  p99: number;
}

/** One op's row of summary.json: its calls and its own early and late windows. */
export interface OpSummary {
  name: string;
  weight: number;
  count: number;
  threw: number;
  time: { early: TimeWindow; late: TimeWindow };
}

/** Which ops' calls grew linear memory (timed pass), and what live bytes they left (counting pass, else null). */
export interface GrowthAttribution {
  op: string;
  growthEvents: number;
  grownBytes: number;
  liveLeftBehind: number | null;
}

/** One source of what the run could see inside the allocator: where it came from, or how to enable it. */
export interface Source {
  source: string | null;
  enable?: string | null;
  [field: string]: unknown;
}

/** What the module let the run see of its allocator (docs/summary.md, "sources"). */
export interface Sources {
  heapTop: Source;
  allocator: Source;
  stackPointer: Source;
  census: Source & { kind?: string | null };
  /** A WasmGC module's struct and array types (raw targets; a scenario's instantiated from bytes): its objects live in the JS heap, which judges them. */
  gc?: Source & { structs: number; arrays: number };
  /** Where the verdicts' live bytes came from, or null. */
  liveBytes: string | null;
  countingPass: null | {
    status: 'completed' | 'failed' | 'interrupted';
    calls: number;
    ofCalls: number;
    partial: boolean;
    instrumented: string[][];
    /** It covered every call and its entry points cover the allocator's core (not only boundary wrappers). */
    complete: boolean;
    error: null | { message: string; phase?: string | null };
    note: string | null;
    [field: string]: unknown;
  };
  memoryGrow: { source: string; atMaximum: string[]; enable: string | null };
  /** The worker threads a scenario's target started from the soak worker (absent when none and not built for wasi-threads); their JS heaps and CPU are not measured. */
  threads?: { started: number; exited: number; maxAlive: number; failed: number; wasiThreads: boolean };
}

/** The heap census: the in-use chunks by size class at warm-up's end and at the run's end. */
export interface Census {
  recognised: boolean;
  /** The allocator kind's JS name, one of CENSUS_KIND's ('dlmalloc', 'dlmallocRust', 'tlsf', 'weeAlloc', ...: WS_CENSUS_FAMILIES in ws_protocol.h), or null. */
  kind: string | null;
  kindText: string;
  censuses: number;
  firstAt: number | null;
  classes: { fromBytes: number; toBytes: number; start: number; end: number; change: number }[];
  growing: { fromBytes: number; toBytes: number; start: number; end: number; change: number }[];
  /** What leaked blocks hold (blockContents): the call of the mark and the blocks picked; null when off or never marked. */
  blocks?: { markedAt: number; picked: number } | null;
  [field: string]: unknown;
}

/** Per call counts: median, p90, p99 and the total over the pass. */
export interface CountStats {
  median: number;
  p90: number;
  p99: number;
  total: number;
}

/** The counting pass (--count-allocs): allocations and bytes per call, live bytes (docs/summary.md, "allocations"). */
export interface Allocations {
  pass: 'count';
  calls: number;
  instrumented: string[][];
  partial: boolean;
  ofCalls: number;
  complete: boolean;
  allocs: CountStats;
  bytes: CountStats;
  live: { start: number; end: number; peak: number };
  timeMedianNs: number;
  ops: {
    name: string;
    calls: number;
    timeMedianNs: number;
    allocs: CountStats;
    frees: { total: number };
    bytes: CountStats;
    liveLeftBehind: number;
  }[];
}

/** summary.json (docs/summary.md); the fields most callers read are typed. */
export interface Summary {
  schema: 'wasm-soak-summary';
  version: number;
  /** The tool that wrote it. */
  tool: { name: 'wasm-soak'; version: string };
  name: string;
  status: 'completed' | 'interrupted' | 'failed';
  exitCode: number;
  /** Why the timed pass stopped; "decided": it ended early on a leak beyond doubt (earlyStop). */
  stopReason: 'iterations' | 'duration' | 'decided' | 'signal' | null;
  /** Why a leaking run ended early (docs/verdicts.md, "Early stop"); null when it was not shortened. */
  earlyStop: {
    calls: number;
    plannedCalls: number | null;
    share: number;
    pValue: number;
    /** Bytes per 1 000 calls, with the interval's ends. */
    slope: number;
    low: number;
    high: number;
    series: string;
  } | null;
  seed: number;
  command: string[];
  reproduce: string;
  /** requested: null for a --duration run without -n. */
  iterations: { requested: number | null; completed: number };
  durationMs: number;
  samples: {
    /** Call records kept (every call unless the log was thinned). */
    calls: number;
    metrics: number;
    tornBytes: number;
    backPressureWaits: number;
    complete: boolean;
    /** The log's cap: maxLogBytes (2 GiB with out, 256 MiB in memory without); null: none. */
    capBytes: number | null;
    damage: null | { records: number; calls: number; stretches: unknown[] };
    thinning: null | { capBytes: number; fullIterations: number; stride: number; note: string };
  };
  error: null | {
    message: string;
    name: string;
    code: string | null;
    phase: string | null;
    iteration: number | null;
    op: string | null;
    stack?: string | null;
  };
  verdict: Verdict;
  findings: Finding[];
  /** What the data could not decide (the verdict "inconclusive" when nothing was found). */
  inconclusive: { reason: string; sentence: string; [field: string]: unknown }[];
  /** What the run shows that is no finding: below-floor trends, start-up growth, a sawtooth (docs/summary.md). */
  notes?: {
    kind: 'below-floor' | 'startup-growth' | 'sawtooth' | 'objects-left-to-gc' | 'gc-garbage';
    series: string | null;
    sentence: string;
    [field: string]: unknown;
  }[];
  /** Only when a signal or an AbortSignal cut the run (or its analysis) short. */
  interrupted?: { signal: string; during: string; cutShort: string[]; recover?: string };
  time: { early: TimeWindow; late: TimeWindow };
  /** Per op (absent from the summary of a run that could not start). */
  ops?: OpSummary[];
  sources?: Sources;
  census?: Census | null;
  allocations?: Allocations | null;
  /** Where each op's time goes (--time-split; docs/summary.md, "timeSplit"), or null. */
  timeSplit?: unknown | null;
  /** The glue's objects by class (scenarios whose glue registers or makes them); null without. */
  objects?: { classes: ObjectClass[] } | null;
  growthAttribution?: GrowthAttribution[];
  memory: { start: number; afterWarmup: number; end: number; max: number; growthEvents: number; [field: string]: unknown };
  /**
   * The files of the result folder: log, countLog, replicaLog and summary as analyze()
   * names them, with figures and plotsSkipped once writeReports() wrote
   * them; null when soak() wrote no file (no `out`).
   */
  outputs: {
    log: string;
    countLog: string | null;
    /** The second timed pass's log when a slowdown was timed again. */
    replicaLog: string | null;
    /** What leaked blocks hold, when block contents were on and the run reached the mark. */
    blocks?: string | null;
    /** The glue's objects by class, when a scenario's glue made any. */
    objects?: string | null;
    summary: string | null;
    figures?: string[];
    plotsSkipped?: string | null;
    [file: string]: unknown;
  } | null;
  [field: string]: unknown;
}

export type ReportFormat = 'png' | 'svg' | 'html' | 'md' | 'junit';
/** A duration: "90s", "30m", "2h", "1500ms", or a number of milliseconds. */
export type Duration = string | number;

/** The options of soak(): one target, plus any option of `wasm-soak run` by its camelCase name. */
export type SoakOptions = (
  | { module: string | URL; bytes?: never; scenario?: never }
  | { bytes: Uint8Array; module?: never; scenario?: never }
  | { scenario: string | URL; module?: never; bytes?: never }
) & {
  /**
   * A result folder to write (logs, summary.json, reports). Without it no
   * file is written anywhere: the logs are kept and analysed in memory, and
   * a raw module's WASI stdout and stderr are the host's.
   */
  out?: string | URL;
  /** The summary's name (default: the file's, or "module" for bytes). */
  name?: string;
  /** Stops the run after its current call; the summary is then "interrupted". */
  signal?: AbortSignal;
  /** Exports to call, with weights: "step", "parse:5,reset:1" or ["parse:5", "reset:1"]. */
  call?: string | string[];
  /** Parameter sources: "iter", "random", "random:LO..HI", "buf:MIN..MAX", an integer, "op=SPEC". */
  args?: string | string[];
  alloc?: string;
  iterations?: number;
  duration?: Duration;
  callTimeout?: Duration;
  setupTimeout?: Duration;
  seed?: number;
  countAllocs?: boolean;
  /** Run every planned call even once a leak is decided (by default a leaking run ends when its leak is beyond doubt), as --full-run. */
  fullRun?: boolean;
  /** List every import a raw module needs that cannot be provided (else more than 4 are counted by module), as --verbose. */
  verbose?: boolean;
  /** A time-split pass: each op's time in the algorithm, the allocator, memory.grow and the glue (summary.timeSplit), as --time-split. */
  timeSplit?: boolean;
  /** Allocation sites in the counting pass (implies countAllocs): summary.sites. */
  sites?: boolean;
  /** Show the first bytes of a few blocks allocated after warm-up in the sizes that accumulate (finding.blocks); default true, false as --no-block-contents. */
  blockContents?: boolean;
  /** Names for a stripped module's sites: an unstripped build or an Emscripten symbol map (implies sites). */
  symbols?: string;
  maxAllocsPerCall?: number | string;
  maxBytesPerCall?: number | string;
  warmup?: number | 'auto';
  timeThreshold?: number;
  failOn?: FindingKind[] | 'none' | string;
  slowEvery?: number;
  slowMs?: number;
  yieldEvery?: number;
  yieldMs?: number;
  ringRecords?: number;
  /**
   * Cap on the timed pass's sample log, bytes or "512M", "1G" (at least 1M);
   * past about half of it the log is thinned (docs/log-format.md, "Thinned
   * logs"). Default: 2 GiB with `out` (a log on disk); without `out` the log
   * lives in the host's memory and the default is 256 MiB (MEMORY_LOG_BYTES),
   * which keeps every call of a run up to about 4 M calls and bounds what
   * the host holds for a longer one.
   */
  maxLogBytes?: number | string;
  /** Compare with a saved baseline (its name or folder), as --baseline. */
  baseline?: string;
  /** Store this run as a baseline (as --save-baseline); needs `out`. */
  saveBaseline?: string;
  /** Reports written into `out` (default every one). */
  format?: ReportFormat[];
  plotTimeout?: Duration;
  requirePlots?: boolean;
};

/** Soaks one target and resolves its summary. Rejects with a SoakError, always: bad options (exitCode 2), a target that cannot start (3), anything else (code WS_EINTERNAL, 3). */
export declare function soak(options: SoakOptions): Promise<Summary>;

/** A decoded sample log (docs/architecture.md, "Decoded run data"). */
export interface DecodedRun {
  header: { target: { name: string; [field: string]: unknown }; config: Record<string, unknown>; [field: string]: unknown };
  /** Call records kept (one per call unless the log was thinned). */
  calls: number;
  complete: boolean;
  /** Per kept call: its time in nanoseconds, its op's index, its flags. */
  elapsed: Float32Array;
  op: Uint16Array;
  flags: Uint8Array;
  /** Linear memory at each change: the iteration and the bytes. */
  memory: { iter: Float64Array; bytes: Float64Array };
  metrics: Record<string, { iter: Float64Array; tMs: Float64Array; value: Float64Array }>;
  durationMs: number;
  /** One kept call per stride iterations (1: every call). */
  stride: number;
  thinning: null | { stride: number; from: number; iterations: number; [field: string]: unknown };
  /** The counting pass's per-call counts (a DecodedRun read as `counted`). */
  allocs?: Uint32Array;
  frees?: Uint32Array;
  allocBytes?: Float64Array;
  live?: Float64Array;
  peak?: Float64Array;
  [field: string]: unknown;
}

export interface RunLogs {
  timed: DecodedRun;
  /** The counting pass's log, or null. */
  counted: DecodedRun | null;
  /** The second timed pass's log (a slowdown timed again), or null. */
  replica: DecodedRun | null;
  /** The counting pass's allocation sites (sites.json, --sites), or null; analyze() reads it into summary.sites. */
  sites: unknown | null;
  /** What leaked blocks hold (blocks.json, block contents on), or null; analyze() reads it into finding.blocks. */
  blocks?: unknown | null;
  /** The glue's objects by class (objects.json), or null; analyze() reads it into summary.objects. */
  objects?: unknown | null;
  /** The time-split pass's stamps and call times (time-split.json), or null; analyze() reads it into summary.timeSplit. */
  timeSplit?: unknown | null;
}

/** The decoded logs of a result folder. Throws a SoakError when it holds no readable log. */
export declare function readRun(dir: string): RunLogs;

export interface AnalysisConfig {
  warmup?: number | 'auto';
  failOn?: string[];
  timeThreshold?: number;
  budgets?: { allocs: unknown; bytes: unknown } | null;
}

export interface RunOutcome {
  status: 'completed' | 'interrupted' | 'failed';
  reason?: string | null;
  phase?: string | null;
  error?: unknown;
}

/** What analyze() returns and writeReports() writes. */
export interface Analysis {
  summary: Summary;
  figureData: unknown;
}

/** The pure analysis of decoded logs: reads and writes nothing. */
export declare function analyze(
  logs: RunLogs & { cfg?: AnalysisConfig; run?: RunOutcome | null; count?: RunOutcome | null },
): Analysis;

/** Writes dir/summary.json and the reports; resolves the summary as written. */
export declare function writeReports(
  dir: string,
  analysis: Analysis,
  options?: { formats?: ReportFormat[]; requirePlots?: boolean; plotTimeoutMs?: number },
): Promise<Summary>;

/** The ctx a scenario's setup, ops and teardown get: seeded helpers and the run's facts (docs/cli.md, "Scenarios"). */
export interface ScenarioContext {
  /** A number in [0, 1). */
  random(): number;
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  pick<T>(array: readonly T[]): T;
  bytes(n: number): Uint8Array;
  /** Varied text of n characters. */
  string(n: number): string;
  lognormal(mu: number, sigma: number): number;
  readonly seed: number;
  /** The current call's index from 0. */
  readonly iteration: number;
  /** Under `compare --arm` or `--package`: the arm this instance runs; else null. */
  readonly arm: Arm | null;
  /** Tracks a memory the run would not see otherwise. */
  track(memory: WebAssembly.Memory, label: string): void;
}

/** A compared arm as its scenario sees it (ctx.arm). */
export interface Arm {
  readonly name: string;
  /** The arm's module: its --arm PATH, or the .wasm file of its --package version. */
  readonly path: string;
  /** Under `compare --package`: the version installed in the package cache. */
  readonly package?: {
    readonly name: string;
    readonly version: string;
    /** npm's integrity of the tarball (sha512-…), or null when npm recorded none. */
    readonly integrity: string | null;
    readonly resolved: string | null;
    /** The cache entry of this version, and the package's folder in it. */
    readonly root: string;
    readonly dir: string;
  };
  /** Under `compare --package`: imports specifier (default: the package) from this version's folder. */
  import?(specifier?: string): Promise<unknown>;
  /** Under `compare --package`: requires specifier (default: the package) from this version's folder. */
  require?(specifier?: string): unknown;
}

/** One op of a scenario: its weight in the mix and one call. */
export interface Op<State = unknown> {
  weight?: number;
  run(state: State, ctx: ScenarioContext): unknown;
}

interface ScenarioBase<State> {
  name?: string;
  setup(ctx: ScenarioContext): State | Promise<State>;
  teardown?(state: State, ctx: ScenarioContext): unknown;
  /** Sampled at the slow cadence: byte counts the module can tell. */
  stats?(state: State): Record<string, number> | Promise<Record<string, number>>;
}

/** A scenario module's default export: one iteration(), or a weighted mix of ops, never both. */
export type Scenario<State = unknown> = ScenarioBase<State> &
  (
    | { iteration(state: State, ctx: ScenarioContext): unknown; ops?: never }
    | { ops: Record<string, Op<State>>; iteration?: never }
  );
