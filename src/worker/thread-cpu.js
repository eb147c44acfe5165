// The CPU time of the worker threads a target starts, from Linux's
// per-thread accounting (/proc/self/task/<tid>/stat): Node 20's Worker has
// no CPU usage of its own (worker.cpuUsage() came with Node 24.6). Node
// creates a Worker's thread inside its constructor, so the one task that
// appears across the constructor is that Worker's; none or several (another
// thread started one at the same moment) leave it unattributed. Elsewhere
// than Linux there is nothing to read.

import { readdirSync, readFileSync } from 'node:fs';

const TASKS = '/proc/self/task';
// USER_HZ, the unit of stat's utime and stime: 100 on every Linux ABI Node runs on.
const TICK_MS = 10;

/** The ids of the process's threads (a Set of strings), or null where /proc has none. */
export function taskIds() {
  try {
    return new Set(readdirSync(TASKS));
  } catch {
    return null;
  }
}

/** The one thread that is not in `before` (taskIds'), or null: none, several, or no /proc. */
export function newTask(before) {
  const after = taskIds();
  if (!before || !after) return null;
  const fresh = [...after].filter((t) => !before.has(t));
  return fresh.length === 1 ? fresh[0] : null;
}

/** Thread tid's user and system CPU time so far, in ms (10 ms ticks), or null when it has exited. */
export function taskCpuMs(tid) {
  let stat;
  try {
    stat = readFileSync(`${TASKS}/${tid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // After the command name in parentheses: state is field 3, utime 14 and stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}
