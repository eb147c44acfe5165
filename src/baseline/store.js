// Where baselines live and how they are read and written: `--save-baseline
// NAME` writes soak-results/baselines/NAME/baseline.json; `--baseline
// NAME|DIR` reads a name from there, or any folder holding a
// baseline.json (a path: it has a slash, or is an existing folder other than
// . and ..; src/options/baseline-ref.js).
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { usageError } from '../errors.js';
import { isBaselineFolder } from '../options/baseline-ref.js';
import { RESULTS_ROOT } from '../options/schema.js';
import { writeResultFile } from '../result-file.js';
import { baselineProblem } from './check.js';

const BASELINES_ROOT = join(RESULTS_ROOT, 'baselines');
const FILE = 'baseline.json';

/** The folder of a baseline given as NAME or DIR (isBaselineFolder; exit 2 for a NAME that is no folder name). */
export function baselineDir(ref) {
  return isBaselineFolder(ref) ? ref : join(BASELINES_ROOT, ref);
}

/** Reads the baseline ref; exit 2 naming the file when it is missing or not a baseline, and the field when one is wrong. */
export function loadBaseline(ref) {
  const dir = baselineDir(ref);
  const path = join(dir, FILE);
  let record;
  try {
    record = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw usageError(
      'WS_EBASELINE',
      `--baseline ${ref}: cannot read ${path}: ${err.code ?? err.message}.`,
      'Save one first with `wasm-soak run … --save-baseline NAME`, or give the folder that holds its baseline.json.',
    );
  }
  if (record?.schema !== 'wasm-soak-baseline' || record.version !== 1) {
    throw usageError(
      'WS_EBASELINE',
      `--baseline ${ref}: ${path} is not a wasm-soak baseline (version 1).`,
      'Save it again with `wasm-soak run … --save-baseline NAME`.',
    );
  }
  const problem = baselineProblem(record);
  if (problem) {
    throw usageError(
      'WS_EBASELINE',
      `--baseline ${ref}: ${path} has a wrong "${problem.field}": it must be ${problem.want}, got ${problem.got}.`,
      'The file was changed after wasm-soak wrote it; save the baseline again with `wasm-soak run … --save-baseline NAME`.',
    );
  }
  return { record, dir };
}

/** Writes record as the baseline ref; returns its path. */
export function saveBaseline(ref, record) {
  const dir = baselineDir(ref);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, FILE);
  writeResultFile(path, `${JSON.stringify(record, null, 2)}\n`);
  return path;
}
