// When the loop stops its batches: a slow sample is due every --slow-every
// iterations, a yield every --yield-every iterations but no sooner than
// config.yieldFloorMs after the last (the floor applies to the default
// cadence, see src/options/schema.js); --slow-ms and --yield-ms bound the
// time between them. Pure: the state is the object createCadence returns,
// the loop passes it in with the iterations completed and the time now (ms).

/** The cadence's state at the loop's start (now: performance.now()). */
export const createCadence = (config, now) => ({
  nextSlow: config.slowEvery,
  lastSlow: now,
  nextYield: config.yieldEvery,
  lastYield: now,
});

/**
 * The calls of the next batch, done having completed: to the next due point,
 * within each of budgets (other parts' limits) and --yield-every; a due point
 * already passed waits on its floor, so it is checked again after another
 * --yield-every iterations.
 */
export function batchCalls(c, config, done, budgets = []) {
  const untilYield = c.nextYield > done ? c.nextYield - done : config.yieldEvery;
  const untilSlow = c.nextSlow > done ? c.nextSlow - done : config.yieldEvery;
  let calls = Math.min(untilYield, untilSlow, config.yieldEvery);
  for (const b of budgets) calls = Math.min(calls, b); // no spread: one call per batch
  return calls;
}

/** Whether a slow sample is due (finished: the loop's last batch ran). */
export const slowDue = (c, config, completed, now, finished) =>
  completed >= c.nextSlow || now - c.lastSlow >= config.slowMs || finished;

/** Records a slow sample taken. */
export function slowTaken(c, config, completed, now) {
  c.nextSlow = completed + config.slowEvery;
  c.lastSlow = now;
}

/** Whether a turn of the event loop is due (pending: a call's promise was awaited). */
export const yieldDue = (c, config, completed, now, pending) =>
  (completed >= c.nextYield && now - c.lastYield >= config.yieldFloorMs) ||
  now - c.lastYield >= config.yieldMs ||
  pending;

/** Records a turn of the event loop, ended at now. */
export function yielded(c, config, completed, now) {
  c.nextYield = completed + config.yieldEvery;
  c.lastYield = now;
}
