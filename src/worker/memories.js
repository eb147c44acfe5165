// The memories and instances a worker tracks, captured as the target makes
// them (capture.js calls onMemory, onInstance, onLabel). Memories and
// instances are held weakly, so that a target that creates and drops
// instances is measured as it behaves (not kept alive by us), and in bounded
// numbers, so that such a target costs the harness nothing per iteration:
// past the caps, new ones are counted but not tracked. Once the loop runs
// (started), a new memory waits in a queue for the next yield (addLate), and
// a relabelled one is posted to the main thread.
import { CENSUS_MEMORIES } from '../protocol.js';

const MAX_MEMORIES = 64;
const MAX_INSTANCES = 32;

/**
 * label, or label#2, label#3, … when another of taken's labels (not self's)
 * has it: a memory's series is named by its label (memory:<label>), and two
 * modules may export theirs under the same name (wasm-bindgen's "memory").
 */
export function distinctLabel(entries, label, self = null) {
  const taken = (l) => entries.some((t) => t !== self && t.label === l);
  if (!taken(label)) return label;
  let n = 2;
  while (taken(`${label}#${n}`)) n++;
  return `${label}#${n}`;
}

/** A tracked entry's memory, or undefined once it was collected. */
export const memoryOf = (entry) => entry.ref.deref();

/**
 * The registry; post(message) sends to the main thread. tracked: entries
 * { ref: WeakRef<Memory>, label, maximumBytes (null: unknown), shared,
 * initialBytes, module, declaredBytes? (the initial size its module declares,
 * capture's onDeclaredSize: how far the census searches) }.
 */
export function createMemories({ post, pageBytes }) {
  const tracked = [];
  const instances = []; // { ref: WeakRef<Instance> }: where allocator sources are looked for
  const importedOf = new WeakMap(); // Instance -> its declared memory and stack-pointer imports
  const late = []; // [memory, entry] pairs awaiting addMemory at the next yield
  let untracked = 0;
  let started = false;
  return {
    tracked,
    /** Memories not tracked past the cap. */
    untracked: () => untracked,
    /** How many instances were ever kept (a change means new allocator sources). */
    instanceCount: () => instances.length,
    onMemory(memory, label, maximumPages, owner) {
      if (tracked.length >= MAX_MEMORIES) {
        untracked++;
        return;
      }
      const entry = {
        ref: new WeakRef(memory),
        label: distinctLabel(tracked, label),
        shared: memory.buffer instanceof SharedArrayBuffer,
        initialBytes: memory.buffer.byteLength,
        maximumBytes: maximumPages === null ? null : maximumPages * pageBytes,
        module: owner,
      };
      tracked.push(entry);
      if (started) late.push([memory, entry]);
    },
    onInstance(instance, imported) {
      if (instances.length >= MAX_INSTANCES) {
        const alive = instances.filter((x) => x.ref.deref() !== undefined);
        instances.length = 0;
        instances.push(...alive);
      }
      if (instances.length < MAX_INSTANCES) {
        instances.push({ ref: new WeakRef(instance) });
        importedOf.set(instance, imported);
      }
    },
    onLabel(memory, label, owner) {
      const index = tracked.findIndex((t) => memoryOf(t) === memory);
      if (index < 0) return;
      tracked[index].label = distinctLabel(tracked, label, tracked[index]);
      tracked[index].module = owner;
      if (started) post({ type: 'label', index, label: tracked[index].label });
    },
    /**
     * Notes the initial size memory's module declares (bytes); scanLimit(index,
     * bytes) raises the census's search limit of a memory the loop already
     * has (null before the runner exists: start's caller applies them).
     */
    onDeclaredSize(memory, bytes, scanLimit) {
      const index = tracked.findIndex((t) => memoryOf(t) === memory);
      if (index < 0 || bytes <= (tracked[index].declaredBytes ?? 0)) return;
      tracked[index].declaredBytes = bytes;
      if (scanLimit && index < tracked.length - late.length) scanLimit(index, bytes);
    },
    /** Drops the memories collected during setup and starts queueing new ones for the loop. */
    start() {
      for (let i = tracked.length - 1; i >= 0; i--) if (!memoryOf(tracked[i])) tracked.splice(i, 1);
      started = true;
    },
    /** Gives the loop's runner the memories made since the last yield (with their census search limit), telling the main thread. */
    addLate(addMemory, scanLimit) {
      while (late.length > 0) {
        const [memory, entry] = late.shift();
        const index = addMemory(memory, entry.shared);
        if (entry.declaredBytes) scanLimit(index, entry.declaredBytes);
        post({ type: 'memory', index, label: entry.label, initialBytes: entry.initialBytes });
      }
    },
    /**
     * The memories that get a heap census, 0 to n-1: every tracked memory the
     * loop has (those awaiting addMemory not yet), the first CENSUS_MEMORIES.
     */
    censused: () => Math.min(tracked.length - late.length, CENSUS_MEMORIES),
    /** The instances still alive, as createSources takes them. */
    liveInstances() {
      const out = [];
      for (const x of instances) {
        const instance = x.ref.deref();
        if (instance) out.push({ instance, imports: importedOf.get(instance) });
      }
      return out;
    },
  };
}
