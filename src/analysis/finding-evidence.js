// What a trend finding is handed beside its statistics, from the rest of
// the analysis: the memory it is about, the census's growing size classes,
// the sites that allocated what grew, what the leaked blocks hold, a
// WasmGC module's objects, a heap that never frees. Each piece is added only
// to the kinds whose words use it (src/report/sentences.js).
import { namedSites } from './sites.js';

// Findings that name the size classes that accumulate, and the memory.
const NAMES_CLASSES = new Set(['leak', 'unfreed-objects', 'growth', 'fragmentation']);

/** Finding f with the census's growing size classes (f.sizeClasses), when it names them (a trend's). */
function withGrowingClasses(f, census) {
  if (!NAMES_CLASSES.has(f.kind) || !census?.growing.length || !f.slope) return f;
  return { ...f, sizeClasses: census.growing };
}

/**
 * JS heap finding f with wasmGc ({ structs, arrays }) when the module is a
 * WasmGC one (gc: the header's sources.gc, or null): its objects live in
 * the JS heap, so its words name the module, not the glue.
 */
function withWasmGc(f, gc) {
  if (f.kind !== 'js-heap-growth' || f.series !== 'js-heap' || !gc) return f;
  return { ...f, wasmGc: { structs: gc.structs, arrays: gc.arrays } };
}

/** Leak finding f with neverFrees when live bytes came from a heap that never frees (its words say so). */
function withNeverFrees(f, neverFrees) {
  if (f.kind !== 'leak' || !neverFrees) return f;
  return { ...f, neverFrees: true };
}

// Findings that name the allocation sites of the growth.
const NAMES_SITES = new Set(['leak', 'unfreed-objects', 'growth']);

/** Finding f with the sites that allocated what grew (f.sites), when it names them. */
function withSites(f, sites) {
  if (!NAMES_SITES.has(f.kind) || namedSites(sites).length === 0) return f;
  return {
    ...f,
    sites: sites.growing
      .slice(0, 3)
      .map((s) => ({ stack: s.stack, op: s.op, growth: s.liveBytes.growth, share: s.share })),
  };
}

/**
 * Finding f, a leak or growth, with what blocks allocated after warm-up in
 * the sizes that accumulate hold (leakedBlocks' blocks): f.blocks; f
 * unchanged for another kind, without blocks, or when f is about another
 * memory than the census's (f.memory, withMemory's).
 */
function withBlocks(f, leaked, censusMemory) {
  if (!NAMES_SITES.has(f.kind) || !leaked?.blocks.length) return f;
  if (f.memory && censusMemory.label !== undefined && f.memory.label !== censusMemory.label) return f;
  return { ...f, blocks: leaked.blocks };
}

/**
 * The memory a leak, growth or fragmentation finding f is about, as
 * f.memory ({ label, module }): the one its series names (memory:<label>),
 * else the one whose census the verdicts read (censusMemory), else the
 * run's only memory; f unchanged when none is known.
 */
function withMemory(f, memories, censusMemory) {
  if (!NAMES_CLASSES.has(f.kind)) return f;
  const named = f.series?.startsWith('memory:') ? memories.find((m) => `memory:${m.label}` === f.series) : undefined;
  const m = named ?? memories[censusMemory] ?? (memories.length === 1 ? memories[0] : undefined);
  if (!m) return f;
  return { ...f, memory: { label: m.label, module: m.module ?? null } };
}

/**
 * Finding f with everything the analysis knows of it (the pieces above):
 * ctx { wasmGc (the header's sources.gc, or null), census (censusSummary's,
 * or null), neverFrees (live bytes from a heap that never frees), memories
 * (the header's), censusMemory (the memory the verdicts read, -1 for none),
 * sites (sitesSummary's, or null), leaked (leakedBlocks', or null) }.
 */
export function withEvidence(f, { wasmGc, census, neverFrees, memories, censusMemory, sites, leaked }) {
  const own = withNeverFrees(withGrowingClasses(withWasmGc(f, wasmGc), census), neverFrees);
  const placed = withSites(withMemory(own, memories, censusMemory), sites);
  return withBlocks(placed, leaked, memories[Math.max(censusMemory, 0)] ?? {});
}
