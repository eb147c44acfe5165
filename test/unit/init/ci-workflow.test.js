// `wasm-soak init --ci`'s YAML emitter (src/init/ci-workflow.js): what it
// writes, read back by a small parser of the subset it emits, is what it was
// given. The written workflow's commands run as the runners would:
// test/e2e/long/init-ci.test.js.
import assert from 'node:assert/strict';
import test from 'node:test';
import { toYaml } from '../../../src/init/ci-workflow.js';
import { parseYaml, SHARD } from '../../yaml-subset.js';

test('the emitter writes what the parser reads back', () => {
  const value = {
    name: "it's: #1",
    on: { schedule: [{ cron: '17 3 * * *' }], workflow_dispatch: null },
    list: [1, 2, 3],
    flags: { yes: true, no: 'false', n: '1.5', x: `${SHARD}` },
    steps: [{ uses: 'a@v1', with: { k: 'v' } }, { run: 'one\n\ntwo "$@"\n' }],
  };
  assert.deepEqual(parseYaml(`${toYaml(value).join('\n')}\n`), value);
});
