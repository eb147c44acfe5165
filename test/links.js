// Links planted where a result file goes, and the check that nothing was
// written through them: shared by test/unit/result-file.test.js and
// test/e2e/result-files.test.js.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Plants a link dir/name for each of names, to outside/victim-N: every
 * other one an existing file (a victim to clobber), the rest dangling (a
 * file a write through the link would create). Returns what outside holds.
 */
export function plant(dir, names, outside) {
  mkdirSync(outside, { recursive: true });
  const held = {};
  names.forEach((name, i) => {
    const victim = join(outside, `victim-${i}`);
    if (i % 2 === 0) {
      held[`victim-${i}`] = `victim of ${name}\n`;
      writeFileSync(victim, held[`victim-${i}`]);
    }
    symlinkSync(victim, join(dir, name));
  });
  return held;
}

/** Asserts that outside holds exactly held: no victim written, no file created through a link. */
export function assertUntouched(outside, held, what) {
  assert.deepEqual(readdirSync(outside).sort(), Object.keys(held).sort(), `${what}: no file created outside`);
  for (const [name, text] of Object.entries(held))
    assert.equal(readFileSync(join(outside, name), 'utf8'), text, `${what}: ${name} untouched`);
}
