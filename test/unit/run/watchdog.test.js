// The watchdog's words for what the worker was doing (src/run/watchdog.js):
// an op's name is the module's or the scenario's text, and reaches the
// terminal in the messages about a call that runs on; its control
// characters are shown, never run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CTL, PHASE } from '../../../src/protocol.js';
import { createWatchdog, describeState, MAX_STRETCH, machineStretch } from '../../../src/run/watchdog.js';

test("a call's op name in the watchdog's words shows its control characters", () => {
  const d = describeState({ phase: PHASE.loop, call: 1, iteration: 7, write: 1 }, [{ name: '\u001b]0;x\u0007spin' }]);
  assert.equal(d.what, 'iteration 7 (op "\\x1b]0;x\\x07spin")');
  assert.equal(d.op, '\u001b]0;x\u0007spin', 'the summary keeps the name as it is (JSON escapes it)');
});

test('the timeouts stretch with the load past the cores, within bounds', () => {
  assert.equal(machineStretch(0.5, 2), 1, 'an idle machine: wall time');
  assert.equal(machineStretch(8, 2), 4);
  assert.equal(machineStretch(400, 2), MAX_STRETCH);
  assert.equal(machineStretch(Number.NaN, 2), 1);
});

test('a setup is hung once the machine time it was given reaches the limit, not the wall time', () => {
  const control = new Int32Array(64);
  Atomics.store(control, CTL.phase, PHASE.setup);
  let factor = 4;
  const dog = createWatchdog({ control, callTimeoutMs: 0, setupTimeoutMs: 1000, stretch: () => factor });
  const t0 = performance.now();
  assert.equal(dog.check(t0), null, 'the first look sets the state');
  assert.equal(dog.check(t0 + 1000), null, '1 s of wall time at four times the load is 250 ms of the machine');
  assert.equal(dog.check(t0 + 3900), null);
  const hang = dog.check(t0 + 4100);
  assert.equal(hang?.by, 'setup-timeout');
  assert.ok(hang.stuckMs >= 4000, 'the hang reports its wall time');
  factor = 1;
  Atomics.store(control, CTL.phase, PHASE.loop);
  assert.equal(dog.check(t0 + 5000), null, 'a change of state starts the count again');
});
