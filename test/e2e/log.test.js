// export and report on a real run's log cut mid-record by a crash. The
// round trip through the writer and the reader: test/unit/analysis/log-reader.test.js.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeLog } from '../../src/analysis/log-reader.js';
import { fixture, runCli, tempDir } from '../helpers.js';

test('export and report work on a log cut mid-record by a crash', async () => {
  const out = tempDir();
  await runCli([
    'run',
    fixture('soak', 'modules', 'clean.wasm'),
    '--call',
    'step',
    '-n',
    '2000',
    '-o',
    out,
    '-q',
    '--fail-on',
    'none',
  ]);
  const log = join(out, 'samples.wslog');
  const full = readFileSync(log);
  writeFileSync(log, full.subarray(0, full.length - 32 * 40 - 11));
  const r = await runCli(['export', out, '--csv']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(join(out, 'samples.csv'), 'utf8').trim().split('\n').length - 1, decodeLog(log).calls);
});
