// Names that become folder names: suite targets (ROOT/<target>), compare
// arms (OUT/<arm>) and baselines (soak-results/baselines/<name>). Each must
// be one plain path segment of its own, so that no name can put a result
// outside the folder the user chose (`..`), onto that folder itself (`.`) or
// into another one (`x/y`); and the names of one suite or comparison must
// differ, or one result would take another's folder.

const SEGMENT = /^[\w.-]+$/;

/** What a folder name may be, for the fixes of the errors that refuse one. */
export const FOLDER_NAME_RULE = "one folder name of letters, digits, '.', '-' or '_', not '.' or '..'";

/**
 * Why name cannot be a folder name of its own (a phrase that follows the
 * name in a sentence), or null when it can.
 */
export function folderNameProblem(name) {
  if (typeof name !== 'string') return `is not text (${JSON.stringify(name)})`;
  if (name === '') return 'is empty';
  if (name === '.') return 'is the folder itself (.), not a folder of its own';
  if (name === '..') return 'is the parent folder (..), not a folder of its own';
  if (name.includes('\0')) return 'contains a NUL character';
  if (/[/\\]/.test(name)) return 'contains a path separator (/ or \\): it would name a folder elsewhere';
  if (!SEGMENT.test(name)) return "has characters other than letters, digits, '.', '-' and '_'";
  return null;
}

/** What an arm name may be: a folder name that is not one of compare's own arms. */
export const ARM_NAME_RULE = `${FOLDER_NAME_RULE}, other than control and boundary (compare's own arms)`;

/** Why name cannot name a compare arm (a phrase that follows the name), or null when it can. */
export function armNameProblem(name) {
  if (name === 'control' || name === 'boundary') return `is the name of compare's own ${name} arm`;
  return folderNameProblem(name);
}

/** The names that occur more than once in names, each with the positions (from 1) where it does. */
export function repeatedNames(names) {
  const positions = new Map();
  for (const [i, name] of names.entries()) positions.set(name, [...(positions.get(name) ?? []), i + 1]);
  return [...positions].filter(([, at]) => at.length > 1).map(([name, at]) => ({ name, at }));
}

/** repeatedNames' result as words: "a" (targets 1, 3); "b" (targets 2, 4), with noun the plural of what was named. */
export const describeRepeated = (repeated, noun) =>
  repeated.map((r) => `"${r.name}" (${noun} ${r.at.join(', ')})`).join('; ');
