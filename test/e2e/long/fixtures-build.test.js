// The committed fixture modules rebuild byte-identically from their sources
// (soak/build.js --check: clang, wasi-libc, wabt, emscripten). CI also runs
// the check on its own before the tests. The fixtures' behaviour, loaded in
// this process: test/unit/soak/fixtures.test.js.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { ROOT } from '../../helpers.js';

const hasToolchain = (() => {
  try {
    execFileSync('clang', ['--version'], { stdio: 'ignore' });
    execFileSync('wat2wasm', ['--version'], { stdio: 'ignore' });
    execFileSync('em-config', ['BINARYEN_ROOT'], { stdio: 'ignore' });
    return existsSync('/usr/lib/wasm32-wasi/libc.a');
  } catch {
    return false;
  }
})();

test('committed modules match a fresh build', { skip: !hasToolchain && 'no clang/wasi-libc/wabt/emscripten' }, () => {
  execFileSync(process.execPath, ['soak/build.js', '--check'], { cwd: ROOT, stdio: 'pipe' });
});
