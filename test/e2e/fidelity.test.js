// Fidelity: the loop yields to the worker's event loop, so glue that frees
// through a FinalizationRegistry gets its callbacks as in production.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeLog } from '../../src/analysis/log-reader.js';
import { fixture, runCli, tempDir } from '../helpers.js';

async function pendingSeries(extra) {
  const out = tempDir();
  const r = await runCli([
    'run',
    fixture('test', 'scenarios', 'finalizers.mjs'),
    '-n',
    '60000',
    '--slow-every',
    '2000',
    '-o',
    out,
    '-q',
    ...extra,
    '--fail-on',
    'none',
  ]);
  assert.equal(r.code, 0, r.stderr);
  return Array.from(decodeLog(join(out, 'samples.wslog')).metrics.liveBytes.value);
}

// Each slow sample (every 2000 calls here) also takes the held sample that
// is due (docs/verdicts.md, "Memory that JS objects own"): a full GC whose
// finalizers run before the loop goes on, so no more wrappers than the calls
// between two samples are ever pending.
test('FinalizationRegistry callbacks run during the loop with the default yields', async () => {
  const pending = await pendingSeries([]);
  assert.ok(Math.max(...pending) <= 2000, `finalizers fell behind: wrappers pending ${pending.join(' ')}`);
});

test('a loop that never yields starves the finalizers (what the yields prevent)', async () => {
  const pending = await pendingSeries(['--yield-every', '100000000', '--yield-ms', '100000', '--slow-every', '100000']);
  assert.equal(pending[pending.length - 1], 60000, 'no finalizer ran while the loop never yielded');
});
