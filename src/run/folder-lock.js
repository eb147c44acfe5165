// The lock that makes a result folder one command's: a file created with
// O_EXCL (fs flag 'wx') inside the folder, naming who writes there (pid,
// host, command line, start time). `run`, `soak` (its root and each
// target's folder), `compare`, `report` and `merge` take it before they
// move or write anything, and a second one on the same folder is refused
// (exit 2) naming the first. A lock left by a process that is gone (same
// host, its pid no longer alive, or alive but another process's: a pid
// reused since, told by the process's start time in /proc on Linux) is
// taken over with a note on stderr. A
// lock is released when its command ends, on an error too, and at the
// latest when the process exits (a second signal exits at once).
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SoakError } from '../errors.js';

export const LOCK_FILE = '.wasm-soak.lock';

// Each attempt either takes the lock, finds a live holder, or clears a
// stale one; two runs clearing the same stale lock at once need a second.
const ATTEMPTS = 4;

/** Lock file path → the text this process wrote in it, for the locks it holds. */
const held = new Map();

function releaseAllOnExit() {
  for (const path of held.keys()) releaseLock(path);
}

/** The holder described in the lock file at path: its JSON, { unreadable: true }, or null when there is none. */
function readHolder(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
    return { unreadable: true, text: '' };
  }
  try {
    return { ...JSON.parse(text), text };
  } catch {
    return { unreadable: true, text };
  }
}

/**
 * When process pid started, from /proc (Linux): { ticks (since boot, as
 * /proc/PID/stat's starttime), ms (since the epoch) }, or null where /proc
 * does not tell. The kernel counts in USER_HZ, 100 a second on Linux.
 */
function processStart(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command's name, which may hold spaces and ")", start at field 3 (state).
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3]);
    const boot = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    if (!Number.isSafeInteger(ticks) || !Number.isFinite(boot)) return null;
    return { ticks, ms: boot * 1000 + ticks * 10 };
  } catch {
    return null;
  }
}

/** How far the boot time /proc gives may drift from the clock a lock's startedAt was read from. */
const CLOCK_SLACK_MS = 5000;

/**
 * Whether the process now at holder.pid is the one that wrote the lock: its
 * start time is the lock's (startTicks), or, for a lock without it, not
 * after the lock was written (startedAt). True where /proc does not tell.
 */
function sameProcess(holder) {
  const start = processStart(holder.pid);
  if (start === null) return true;
  if (Number.isSafeInteger(holder.startTicks)) return start.ticks === holder.startTicks;
  const wrote = Date.parse(holder.startedAt);
  return !(Number.isFinite(wrote) && start.ms > wrote + CLOCK_SLACK_MS);
}

/**
 * False only when holder ran on this host and its process is gone (its pid
 * not alive, or now another process's); a lock that cannot be read counts
 * as live.
 */
function isAlive(holder) {
  if (holder.unreadable || holder.hostname !== hostname() || !Number.isInteger(holder.pid)) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if (err.code !== 'EPERM') return false; // EPERM: alive, another user's
  }
  return sameProcess(holder);
}

/** Who holds a lock, in words: "pid 123 on host, started T: COMMAND". */
function describeHolder(holder) {
  if (holder.unreadable) return 'a run whose lock file cannot be read';
  return `pid ${holder.pid} on ${holder.hostname}, started ${holder.startedAt}: ${holder.command}`;
}

/** The exit-2 error for dir, held by holder (a live run). */
function heldError(dir, holder) {
  return new SoakError(
    'WS_ELOCKED',
    `The result folder ${dir} is in use by another wasm-soak run (${describeHolder(holder)}); nothing was written.`,
    {
      fix: `Wait for that run to end, or give this one another folder (--out). If that run is gone (it ran on another host, or the file is damaged), remove ${join(dir, LOCK_FILE)}.`,
    },
  );
}

/**
 * The live run that holds dir's lock, as an exit-2 error naming it, or null
 * when dir is not locked by a live run (or does not exist).
 */
export function lockedBy(dir) {
  const holder = readHolder(join(dir, LOCK_FILE));
  return holder && isAlive(holder) ? heldError(dir, holder) : null;
}

/** Removes the stale lock at path whose text was staleText; leaves a lock another run took meanwhile. */
function clearStale(path, staleText) {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if (err.code === 'ENOENT') return; // another run cleared it first
    throw err;
  }
  if (readHolder(aside)?.text !== staleText) {
    // Another run replaced the stale lock between our read and the rename: give it back.
    try {
      linkSync(aside, path);
    } catch {}
  }
  unlinkSync(aside);
}

/** Creates the lock file at path with text, or returns false when one exists; other errors throw. */
function create(path, text) {
  let fd;
  try {
    fd = openSync(path, 'wx');
  } catch (err) {
    if (err.code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, text);
  } catch (err) {
    // An empty lock would read as a live run's: a full disk must leave none.
    closeSync(fd);
    unlinkSync(path);
    throw err;
  }
  closeSync(fd);
  return true;
}

/**
 * Locks the existing folder dir for this process (the lock names its
 * command line, as ps shows it). Returns { path, release }:
 * release() removes the lock (it never throws; once is enough, more do
 * nothing). Throws a SoakError (exit 2) naming the live run that holds it,
 * or the errno when no file can be created in dir.
 */
export function lockFolder(dir) {
  const path = join(dir, LOCK_FILE);
  const command = ['node', ...process.argv.slice(1)].join(' ');
  const startTicks = processStart(process.pid)?.ticks ?? null;
  const text = `${JSON.stringify({ pid: process.pid, hostname: hostname(), command, startedAt: new Date().toISOString(), startTicks })}\n`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let taken;
    try {
      taken = create(path, text);
    } catch (err) {
      throw new SoakError(
        'WS_EOUTDIR',
        `Cannot write in the result folder ${dir}: ${err.code ?? err.message} (${err.message}).`,
        {
          fix: 'Give it a folder you can write to (check its permissions, and that its file system is mounted read-write).',
        },
      );
    }
    if (taken) {
      if (held.size === 0) process.on('exit', releaseAllOnExit);
      held.set(path, text);
      return { path, release: () => releaseLock(path) };
    }
    const holder = readHolder(path);
    if (holder === null) continue; // released meanwhile
    if (isAlive(holder)) throw heldError(dir, holder);
    process.stderr.write(
      `wasm-soak: ${dir} was locked by a run that is gone (${describeHolder(holder)}); taking it over.\n`,
    );
    clearStale(path, holder.text);
  }
  throw heldError(dir, readHolder(path) ?? { unreadable: true });
}

/** Removes the lock at path when this process holds it and the file is still its own. */
function releaseLock(path) {
  const text = held.get(path);
  if (text === undefined) return;
  held.delete(path);
  if (held.size === 0) process.off('exit', releaseAllOnExit);
  try {
    if (readFileSync(path, 'utf8') === text) unlinkSync(path);
  } catch {}
}
