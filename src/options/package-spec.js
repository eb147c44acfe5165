// An npm package version as `compare --package` names it: "[ARM=]NAME@VERSION"
// with an exact version (src/compare/packages.js installs it).
import { usageError } from '../errors.js';
import { ARM_NAME_RULE, armNameProblem } from '../folder-names.js';

const NAME = /^(?:@[a-z0-9][\w.~-]*\/)?[a-z0-9~][\w.~-]*$/;
const EXACT = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/**
 * Parses "[ARM=]NAME@VERSION" (--package): { arm (a name, or null for the
 * default), name, version }. VERSION must be exact (1.2.3, 1.2.3-rc.1): a
 * range or a tag would compare whatever the registry says today. Throws a
 * usage error (exit 2) naming the option.
 */
export function parsePackage(text, option = 'package') {
  const example = `Example: --${option} lz4-wasm-nodejs@0.9.2, or --${option} old=lz4-wasm-nodejs@0.9.1`;
  const m = /^(?:([^=@]*)=)?(@?[^@]+)@(.*)$/.exec(text);
  if (!m) throw usageError('WS_EOPTION', `--${option} must be [ARM=]NAME@VERSION, got "${text}".`, example);
  const [, arm = null, name, version] = m;
  if (!NAME.test(name)) {
    throw usageError('WS_EOPTION', `--${option} ${text}: "${name}" is not an npm package name.`, example);
  }
  if (!EXACT.test(version)) {
    throw usageError(
      'WS_EOPTION',
      `--${option} ${text}: "${version}" is not an exact version (a range or a tag names whatever the registry holds today).`,
      `Pin the version, e.g. ${name}@1.2.3 (npm view ${name} versions lists them).`,
    );
  }
  const problem = arm === null ? null : armNameProblem(arm);
  if (problem) {
    throw usageError(
      'WS_EOPTION',
      `--${option} ${text}: the arm name "${arm}" ${problem}.`,
      `Name it with ${ARM_NAME_RULE}.`,
    );
  }
  return { arm, name, version };
}
