// The watchdog's words for what the worker was doing (src/run/watchdog.js):
// an op's name is the module's or the scenario's text, and reaches the
// terminal in the messages about a call that runs on; its control
// characters are shown, never run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHASE } from '../../../src/protocol.js';
import { describeState } from '../../../src/run/watchdog.js';

test("a call's op name in the watchdog's words shows its control characters", () => {
  const d = describeState({ phase: PHASE.loop, call: 1, iteration: 7, write: 1 }, [{ name: '\u001b]0;x\u0007spin' }]);
  assert.equal(d.what, 'iteration 7 (op "\\x1b]0;x\\x07spin")');
  assert.equal(d.op, '\u001b]0;x\u0007spin', 'the summary keeps the name as it is (JSON escapes it)');
});
