// src/worker/prepare.js: the checks made once the target's ops are known.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkBudgetOps } from '../../../src/worker/prepare.js';

const ops = [{ name: 'parse' }, { name: 'reset' }];

test('a per-op budget naming an op the run has passes; one naming another is exit 2', () => {
  assert.doesNotThrow(() => checkBudgetOps({ allocs: { all: 3, ops: { parse: 1 } } }, ops));
  assert.doesNotThrow(() => checkBudgetOps(undefined, ops));
  assert.throws(() => checkBudgetOps({ bytes: { all: null, ops: { prase: 8 } } }, ops), {
    code: 'WS_EOPTION',
    exitCode: 2,
    message: '--max-bytes-per-call prase=… names the op "prase", which the run does not have (its ops: parse, reset).',
  });
});
