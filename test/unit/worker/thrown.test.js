// src/worker/thrown.js: any thrown value as the summary reports it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failureOf, serializeError } from '../../../src/worker/thrown.js';

test('an Error keeps its name, message, stack and code; another value is described', () => {
  const e = Object.assign(new RangeError('bad'), { code: 'X' });
  assert.deepEqual(
    { ...serializeError(e), stack: undefined },
    { name: 'RangeError', message: 'bad', stack: undefined, code: 'X', fix: undefined, exitCode: undefined },
  );
  assert.equal(serializeError('x').message, "threw a string: 'x' (not an Error, so no stack)");
  assert.equal(serializeError(undefined).message, 'threw undefined (not an Error, so no stack)');
  assert.equal(serializeError({ a: 1 }).message, 'threw an object: { a: 1 } (not an Error, so no stack)');
});

test('a value whose inspection throws is still described', () => {
  const hostile = new Proxy(
    {},
    {
      getPrototypeOf() {
        throw new Error('no');
      },
    },
  );
  assert.match(serializeError(hostile).message, /^threw a value that cannot be described \(reading it threw/);
});

test("a WASI proc_exit in an iteration is named with its code, anything else is the error's", () => {
  const exitCodeOf = (err) => (err === 'exit' ? 3 : null);
  assert.deepEqual(failureOf({ phase: 'iteration', error: 'exit' }, exitCodeOf, 41), {
    name: 'Error',
    code: 'WS_EPROCEXIT',
    message: 'the module called proc_exit(3) in iteration 41',
    stack: null,
  });
  assert.equal(failureOf({ phase: 'teardown', error: 'exit' }, exitCodeOf, 41).name, 'non-Error value');
  assert.equal(failureOf({ phase: 'iteration', error: new Error('e') }, undefined, 1).message, 'e');
});
