// `wasm-soak merge DIR...` (src/cli/commands/merge.js calls mergeFolders):
// combines the result roots of a suite's shards (`wasm-soak soak --shard
// K/N -o DIR`, one per CI job) into one suite result and its reports
// (suite-report.js) under out. The shards of one
// suite are put back in suite order; a missing or repeated shard, or a
// target in two folders, is a usage error naming them; so is a folder that
// a live run still writes, in or out (folder-lock.js).
import { resolve } from 'node:path';
import { EXIT, usageError } from '../errors.js';
import { writeSuiteReports } from '../report/suite-report.js';
import { readSuiteResult } from '../report/suite-result.js';
import { lockedBy } from '../run/folder-lock.js';
import { prepareOutDir } from '../run/out-dir.js';

/** Fails unless the shards of one suite are each given once and none is missing. */
function checkShards(results, dirs) {
  const shards = results.map((r) => r.shard);
  if (shards.some((s) => !s)) return;
  const n = shards[0].n;
  const where = dirs.join(', ');
  const suites = [...new Set(results.map((r) => r.name))];
  if (suites.length > 1) {
    throw usageError(
      'WS_EMERGE',
      `The folders ${where} are shards of different suites (${suites.join(', ')}).`,
      'Merge the shards of one suite; to combine whole suites, merge their unsharded results.',
    );
  }
  if (shards.some((s) => s.n !== n)) {
    throw usageError(
      'WS_EMERGE',
      `The folders ${where} are shards of different splits (${shards.map((s) => `${s.k}/${s.n}`).join(', ')}).`,
      'Merge the shards of one `--shard K/N` split: the same N for every folder.',
    );
  }
  const seen = new Set();
  for (const [i, s] of shards.entries()) {
    if (seen.has(s.k))
      throw usageError('WS_EMERGE', `Shard ${s.k}/${n} is given twice (${dirs[i]}).`, 'Give each shard once.');
    seen.add(s.k);
  }
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((k) => !seen.has(k));
  if (missing.length) {
    throw usageError(
      'WS_EMERGE',
      `Shard ${missing.map((k) => `${k}/${n}`).join(', ')} of the suite is missing from ${where}.`,
      "Give the result folder of every shard (download every CI job's artifact, also of jobs that failed).",
    );
  }
}

/** One suite result from several: cases in suite order for shards, else folder order. */
export function mergeResults(results, dirs) {
  checkShards(results, dirs);
  const cases = results.flatMap((r) => r.cases);
  const names = new Map();
  for (const [i, r] of results.entries()) {
    for (const c of r.cases) {
      if (names.has(c.name))
        throw usageError(
          'WS_EMERGE',
          `The target "${c.name}" is in both ${names.get(c.name)} and ${dirs[i]}.`,
          'Merge the shards of one run; each target must come from one folder.',
        );
      names.set(c.name, dirs[i]);
    }
  }
  const sharded = results.every((r) => r.shard);
  if (sharded) cases.sort((a, b) => a.index - b.index);
  const started = results.map((r) => Date.parse(r.startedAt)).filter(Number.isFinite);
  return {
    ...results[0],
    name: [...new Set(results.map((r) => r.name))].join(' + '),
    shard: null,
    shards: sharded ? `${results.length} shards merged` : `${results.length} results merged`,
    startedAt: new Date(started.length ? Math.min(...started) : Date.now()).toISOString(),
    hosts: [...new Set(results.flatMap((r) => r.hosts ?? []))],
    wallMs: Math.max(...results.map((r) => r.wallMs ?? 0)),
    expectMode: results.some((r) => r.expectMode),
    cases,
  };
}

/**
 * Merges the suite results in dirs into one under out (its index.html,
 * summary.md and junit.xml). Resolves { merged (the suite result), exitCode
 * (3 for a target in error or not run, 1 for one that failed, else 0),
 * lines (what the terminal says of it) }.
 */
export async function mergeFolders(dirs, out) {
  // A shard that a live run still writes is not a result yet.
  const busy = dirs.map((dir) => lockedBy(dir)).find(Boolean);
  if (busy) throw busy;
  const results = dirs.map((dir) => readSuiteResult(resolve(dir)));
  const merged = mergeResults(results, dirs);
  const folder = prepareOutDir(out);
  try {
    await writeSuiteReports(folder.path, merged);
  } finally {
    folder.release();
  }
  const n = (o) => merged.cases.filter((c) => c.outcome === o).length;
  const lines = [
    `${merged.cases.length} targets from ${dirs.length} folders: ${n('passed')} passed, ${n('failed')} failed, ${n('error')} errors${n('skipped') ? `, ${n('skipped')} not run` : ''}`,
    ...merged.cases.filter((x) => x.outcome !== 'passed').map((c) => `  ${c.name}: ${c.message}`),
    `results: ${out}/ (index.html, summary.md and junit.xml for the whole suite)`,
  ];
  const exitCode = n('error') || n('skipped') ? EXIT.FAILED : n('failed') ? EXIT.FINDING : EXIT.OK;
  return { merged, exitCode, lines };
}
