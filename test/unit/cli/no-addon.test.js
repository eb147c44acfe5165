// The command line's entry (src/cli/main.js) loads no native addon by its
// static imports: `--help`, `--version` and usage errors work where the
// addon is missing (an install with scripts blocked on another platform).
// The commands load theirs when they run. The install itself:
// test/e2e/long/package.test.js.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The chain of static imports from file to target (paths from the root), or null. */
function chainTo(file, target, seen = new Set()) {
  if (file === target) return [relative(ROOT, file)];
  if (seen.has(file)) return null;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^(?:import|export)\s+(?:[^'";]*?from\s+)?['"](\.[^'"]+)['"]/gm)) {
    const next = resolve(dirname(file), m[1]);
    if (!existsSync(next)) continue;
    const rest = chainTo(next, target, seen);
    if (rest) return [relative(ROOT, file), ...rest];
  }
  return null;
}

test("the CLI's entry imports nothing that loads the addon", () => {
  const chain = chainTo(resolve(ROOT, 'src/cli/main.js'), resolve(ROOT, 'src/addon.js'));
  assert.equal(chain, null, chain?.join(' -> '));
});
