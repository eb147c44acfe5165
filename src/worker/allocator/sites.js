// Allocation sites, worker side (the counting pass with --sites): the
// instrumented allocator's events, each with the op of the call running and
// its frames (frames.js), go into an Int32Array that the C site table
// (addon.sitesCreate, ws_sites.h) takes in batches: when it fills, and
// before every snapshot. Snapshots of every site's totals are taken before
// the first call, at SNAPSHOTS evenly spaced calls of the pass and at its
// end, so that the analysis reads live bytes per site at the trend window's
// start and end. result() names each frame (frame-names.js).
import { addon } from '../../addon.js';
import {
  CTL,
  SITE_EVENT,
  SITE_EVENT_INTS,
  SITE_FRAMES,
  SITE_KEY_INTS,
  SITE_NO_FRAME,
  SITE_VALUE_FIELDS,
} from '../../protocol.js';
import { frameNamer, readSymbols } from './frame-names.js';

// Events buffered before the C table takes them.
const BUFFER_EVENTS = 4096;
// Snapshots between the first call and the last.
const SNAPSHOTS = 32;

const { kind: KIND, module: MODULE, op: OP, ptr: PTR, size: SIZE, oldPtr: OLD_PTR, frames: FRAMES } = SITE_EVENT;

const FRAME_PARAMS = Array.from({ length: SITE_FRAMES }, (_, i) => `f${i}`);
// The event import, built with exactly the import's arity (4 + SITE_FRAMES
// named parameters, written from C's SITE_FRAMES): V8 calls a JS function
// whose parameter count matches the wasm signature's directly, one read
// through `arguments` (or with another count) through its arguments
// adaptor (bench/sites.js, worst case: 2.11x the counting pass with
// `arguments`, 1.70x with named parameters; a rest parameter, which
// allocates an array per event, was 2.75x). put writes the event's own
// fields at event slot at (at0()), flush counts it.
const siteEventOf = new Function(
  'put',
  'at0',
  'flush',
  'events',
  `return function siteEvent(kind, ptr, size, oldPtr, ${FRAME_PARAMS.join(', ')}) {
    const at = at0();
    put(at, kind, ptr, size, oldPtr);
    ${FRAME_PARAMS.map((f, i) => `events[at + ${FRAMES + i}] = ${f};`).join('\n    ')}
    flush();
  };`,
);

/**
 * The site table of a counting pass of iterations calls (null: until it is
 * stopped). control: the ring's control words (the CALL word names the op
 * running); symbols: the --symbols path or null. Returns { addModule(bytes,
 * framed), hook(module, count), budget(done),
 * reached(done), end(done), result(), close() }.
 * Long: its closures share the table's state.
 */
export function createSites({ control, iterations, symbols = null }) {
  const symbolNames = symbols ? readSymbols(symbols) : null;
  const events = new Int32Array(new ArrayBuffer(BUFFER_EVENTS * SITE_EVENT_INTS * 4));
  const table = addon.sitesCreate(events);
  const modules = [];
  const snapshots = [];
  let n = 0;
  let next = 0; // the snapshot due next
  const dueAt = (k) => (iterations === null ? Infinity : Math.floor((k * iterations) / SNAPSHOTS));
  const apply = () => {
    if (n > 0) addon.sitesApply(table, n);
    n = 0;
  };
  const snapshot = (done) => {
    apply();
    const s = addon.sitesSnapshot(table);
    snapshots.push({ calls: done, count: s.count, keys: s.keys, values: s.values });
  };
  return {
    /**
     * Registers an instrumented module; returns its number. framed:
     * functions that keep frames; glue: export name -> the name its JS glue
     * binds it to (glue-names.js).
     */
    addModule(bytes, framed, glue = new Map()) {
      modules.push({ name: frameNamer(bytes, symbolNames, glue), framed });
      return modules.length - 1;
    },
    /**
     * Module's event import: count(kind, ptr, size, oldPtr) first, then the
     * event and its SITE_FRAMES frames (the parameters after oldPtr) into
     * the buffer (siteEventOf).
     */
    hook(module, count) {
      const put = (at, kind, ptr, size, oldPtr) => {
        count(kind, ptr, size, oldPtr);
        events[at + KIND] = kind;
        events[at + MODULE] = module;
        events[at + OP] = control[CTL.call] - 1; // the CALL word: 1 + op, 0 outside calls
        events[at + PTR] = ptr;
        events[at + SIZE] = size;
        events[at + OLD_PTR] = oldPtr;
      };
      const flush = () => {
        if (++n === BUFFER_EVENTS) apply();
      };
      return siteEventOf(put, () => n * SITE_EVENT_INTS, flush, events);
    },
    /** Calls the loop may run before the next snapshot is due. */
    budget: (done) => Math.max(1, dueAt(next) - done),
    /** Takes the snapshots due by done calls. */
    reached(done) {
      if (done < dueAt(next)) return;
      snapshot(done);
      while (dueAt(next) <= done) next++;
    },
    /**
     * The last snapshot, when the loop ended after done calls (before a
     * scenario's teardown, which may free everything); it replaces one
     * taken at the same call.
     */
    end(done) {
      if (snapshots.at(-1)?.calls === done) snapshots.pop();
      snapshot(done);
    },
    /** The pass's sites, named, and its snapshots (docs/summary.md, "sites"). */
    result() {
      const last = snapshots.at(-1);
      const sites = [];
      for (let id = 0; id < last.count; id++) {
        const key = last.keys.subarray(id * SITE_KEY_INTS, (id + 1) * SITE_KEY_INTS);
        const module = modules[key[0]];
        const frames = [];
        for (const index of key.subarray(2)) if (index !== SITE_NO_FRAME) frames.push(module.name(index));
        sites.push({ module: key[0], op: key[1], frames });
      }
      return {
        frames: SITE_FRAMES,
        modules: modules.map((m) => ({ framed: m.framed })),
        sites,
        snapshots: snapshots.map((s) => ({
          calls: s.calls,
          values: Array.from(s.values.subarray(0, s.count * SITE_VALUE_FIELDS)),
        })),
      };
    },
    close: () => addon.sitesClose(table),
  };
}
