// Automatic allocator sources (worker side): what a module lets us see of its
// heap without being rebuilt. Each source is read at the slow cadence and
// recorded as a metric (docs/log-format.md); when none is available the
// summary names the export or build option that would enable it. The heap
// census (addon.census, one per memory) needs no export at all:
// censusSources() says what it found.

import { METRIC } from '../../protocol.js';

const MALLINFO_BYTES = 40; // dlmalloc's struct mallinfo: ten 32-bit fields
const MALLINFO = { arena: 0, hblkhd: 4, uordblks: 7, fordblks: 8 };

const fn = (exports, name) => (typeof exports[name] === 'function' ? exports[name] : null);

function memoryOf(instance, imports) {
  for (const v of Object.values(instance.exports)) if (v instanceof WebAssembly.Memory) return v;
  for (const fields of Object.values(imports ?? {})) {
    for (const v of Object.values(fields ?? {})) if (v instanceof WebAssembly.Memory) return v;
  }
  return null;
}

function stackGlobal(instance, imports) {
  const exported = instance.exports.__stack_pointer;
  if (exported instanceof WebAssembly.Global) return { global: exported, how: 'exported __stack_pointer global' };
  for (const [module, fields] of Object.entries(imports ?? {})) {
    const g = fields?.__stack_pointer;
    if (g instanceof WebAssembly.Global) return { global: g, how: `imported ${module}.__stack_pointer global` };
  }
  return null;
}

/**
 * Returns use(fn): calls fn(address) with MALLINFO_BYTES of module memory
 * that is safe to write, as a C caller would provide for a struct result:
 * on the shadow stack (Emscripten's stackSave/stackAlloc/stackRestore, or
 * the __stack_pointer global lowered and restored), else one block from the
 * module's exported malloc, taken once and kept for the run. Null when the
 * module offers none of these.
 */
function scratchSpace(e, imports) {
  const save = fn(e, 'stackSave') ?? fn(e, 'emscripten_stack_get_current');
  const alloc = fn(e, 'stackAlloc') ?? fn(e, '_emscripten_stack_alloc');
  const restore = fn(e, 'stackRestore') ?? fn(e, '_emscripten_stack_restore');
  if (save && alloc && restore) {
    return (use) => {
      const top = save();
      try {
        return use(alloc(MALLINFO_BYTES) >>> 0);
      } finally {
        restore(top);
      }
    };
  }
  const sp = stackGlobal({ exports: e }, imports);
  if (sp) {
    return (use) => {
      const top = sp.global.value;
      sp.global.value = (top - 64) & ~15;
      try {
        return use(sp.global.value >>> 0);
      } finally {
        sp.global.value = top;
      }
    };
  }
  const malloc = fn(e, 'malloc');
  const block = malloc ? malloc(MALLINFO_BYTES) >>> 0 : 0;
  return block ? (use) => use(block) : null;
}

/** Finds the sources one instance offers; returns { readers, names } or null. */
function probeInstance(instance, imports) {
  const e = instance.exports;
  const memory = memoryOf(instance, imports);
  const readers = {};
  const names = {};
  if (fn(e, 'sbrk')) {
    readers.heapTop = () => e.sbrk(0) >>> 0;
    names.heapTop = 'sbrk(0)';
  } else if (fn(e, 'emscripten_get_sbrk_ptr') && memory) {
    const at = e.emscripten_get_sbrk_ptr() >>> 0;
    readers.heapTop = () => new DataView(memory.buffer).getUint32(at, true);
    names.heapTop = 'emscripten_get_sbrk_ptr';
  }
  const mallinfo = fn(e, 'mallinfo');
  const withScratch = mallinfo && mallinfo.length === 1 && memory ? scratchSpace(e, imports) : null;
  if (withScratch) {
    const read = () =>
      withScratch((at) => {
        mallinfo(at);
        const view = new DataView(memory.buffer);
        const field = (k) => view.getUint32(at + MALLINFO[k] * 4, true);
        return { live: field('uordblks'), heap: field('arena') + field('hblkhd'), free: field('fordblks') };
      });
    readers.allocator = read;
    names.allocator = 'mallinfo (uordblks, arena, fordblks)';
  } else if (fn(e, 'emmalloc_dynamic_heap_size') && fn(e, 'emmalloc_free_dynamic_memory')) {
    readers.allocator = () => {
      const heap = e.emmalloc_dynamic_heap_size() >>> 0;
      const free = e.emmalloc_free_dynamic_memory() >>> 0;
      return { live: heap - free, heap, free };
    };
    names.allocator = 'emmalloc_dynamic_heap_size / emmalloc_free_dynamic_memory';
  }
  const stack = stackGlobal(instance, imports);
  if (stack) {
    readers.stackPointer = () => stack.global.value >>> 0;
    names.stackPointer = stack.how;
  } else if (fn(e, 'emscripten_stack_get_current')) {
    readers.stackPointer = () => e.emscripten_stack_get_current() >>> 0;
    names.stackPointer = 'emscripten_stack_get_current()';
  }
  return Object.keys(readers).length ? { readers, names } : null;
}

const HINTS = {
  heapTop:
    'export sbrk (clang: -Wl,--export=sbrk; Emscripten: -sEXPORTED_FUNCTIONS=_sbrk, or keep emscripten_get_sbrk_ptr)',
  allocator:
    "export mallinfo (dlmalloc builds: -Wl,--export=mallinfo; Emscripten: -sEXPORTED_FUNCTIONS=_mallinfo,_malloc) or emmalloc's emmalloc_dynamic_heap_size and emmalloc_free_dynamic_memory",
  stackPointer:
    'export the __stack_pointer global (wasm-ld: -Wl,--export=__stack_pointer with -mmutable-globals) or emscripten_stack_get_current',
};

/**
 * What a search that recognised nothing tried (addon.census's tried and
 * nearestMiss), in words: "tried dlmalloc (3 candidates), emmalloc (0),
 * AssemblyScript TLSF (0); nearest miss: a dlmalloc state at 0x2018 whose
 * heap walk failed after 700 blocks", or '' when it says nothing.
 */
function triedText({ tried, nearestMiss }) {
  if (!tried) return '';
  const families = tried.map((t, i) => `${t.family} (${t.candidates}${i === 0 ? ' candidates' : ''})`).join(', ');
  const miss = nearestMiss
    ? `; nearest miss: a ${nearestMiss.family} state at 0x${nearestMiss.at.toString(16)} whose heap walk failed after ${nearestMiss.chunks} blocks`
    : '; no candidate walked past its first block';
  return `tried ${families}${miss}`;
}

/**
 * One memory's census taken before the first call (addon.census's result):
 * { source, kind, state, chunks, walkMs } when an allocator was recognised,
 * else { source: null, enable, tried, nearestMiss } saying why and, after a
 * search, what it tried (the families, their candidates, the nearest miss:
 * something to quote when reporting an allocator the census does not know).
 */
function censusSource(result) {
  if (result.status !== 'taken') {
    const tried = triedText(result);
    return {
      source: null,
      enable: `not recognised before the first call: ${result.reason ?? 'not attempted'}${tried ? ` (${tried})` : ''}; retried at every slow sample (series censusKind)`,
      ...(result.tried ? { tried: result.tried, nearestMiss: result.nearestMiss } : {}),
    };
  }
  const walkMs = result.walkNs / 1e6;
  return {
    source: `${result.kindText}, state at 0x${result.state.toString(16)}, ${result.chunks} chunks, walked in ${walkMs.toFixed(2)} ms`,
    kind: result.kind,
    state: result.state,
    chunks: result.chunks,
    walkMs,
  };
}

/**
 * The header's description of the heap censuses taken before the first
 * call, one per memory (results: addon.census's, in the order of tracked,
 * whose labels and modules name them): the first recognised memory's
 * fields ({ source, kind, state, chunks, walkMs }, its source prefixed with
 * the memory's label when there are several), else { source: null, enable }
 * (the first memory's reason); and memories: [{ memory, module, ...that
 * memory's fields }]. Without a memory: { source: null, enable }. Each census
 * is retried at every slow sample; its series say what it found later.
 */
export function censusSources(results, tracked) {
  if (results.length === 0) return { source: null, enable: 'the module has no linear memory to read' };
  const memories = results.map((r, k) => ({
    memory: tracked[k].label,
    module: tracked[k].module ?? null,
    ...censusSource(r),
  }));
  const lead = memories.find((m) => m.source !== null) ?? memories[0];
  const { memory, module, ...fields } = lead;
  if (memories.length > 1 && fields.source !== null) fields.source = `memory "${memory}": ${fields.source}`;
  return { ...fields, memories };
}

/**
 * Collects sources from the instances seen so far ([{ instance, imports }]):
 * each source comes from the first instance that offers it. Returns
 * { sample(record), describe() } where record(metricId, value) receives the
 * readings and describe() says what was found and what would enable the rest.
 */
export function createSources(instances) {
  const found = {};
  for (const { instance, imports } of instances) {
    const probe = probeInstance(instance, imports);
    if (!probe) continue;
    for (const [k, read] of Object.entries(probe.readers)) {
      if (!found[k]) found[k] = { read, name: probe.names[k] };
    }
  }
  return {
    sample(record) {
      if (found.heapTop) record(METRIC.heapTop, found.heapTop.read());
      if (found.stackPointer) record(METRIC.stackPointer, found.stackPointer.read());
      if (found.allocator) {
        const a = found.allocator.read();
        record(METRIC.allocatorLive, a.live);
        record(METRIC.allocatorHeap, a.heap);
        record(METRIC.allocatorFree, a.free);
      }
    },
    describe() {
      const out = {};
      for (const k of ['heapTop', 'allocator', 'stackPointer']) {
        out[k] = found[k] ? { source: found[k].name } : { source: null, enable: HINTS[k] };
      }
      return out;
    },
  };
}
