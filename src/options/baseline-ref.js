// A baseline reference, NAME or DIR: a path with a slash, or an existing
// folder other than . and .., is the folder that holds baseline.json; any
// other reference is a name under soak-results/baselines/ and must be one
// plain folder name (src/folder-names.js), or it would put the baseline
// elsewhere (`..` would write soak-results/baseline.json).
import { statSync } from 'node:fs';
import { usageError } from '../errors.js';
import { FOLDER_NAME_RULE, folderNameProblem } from '../folder-names.js';

/**
 * True when ref is a baseline's folder, false when it is a baseline's name.
 * Throws exit 2, naming --option, for a name that cannot be a folder name.
 */
export function isBaselineFolder(ref, option = 'baseline') {
  if (ref.includes('/')) return true;
  if (ref !== '.' && ref !== '..' && statSync(ref, { throwIfNoEntry: false })?.isDirectory()) return true;
  const problem = folderNameProblem(ref);
  if (problem) {
    throw usageError(
      'WS_EOPTION',
      `--${option} ${ref}: the baseline name "${ref}" ${problem}.`,
      `Give a name that is ${FOLDER_NAME_RULE} (kept under soak-results/baselines/), or a folder as a path with a slash, such as ./base/.`,
    );
  }
  return false;
}
