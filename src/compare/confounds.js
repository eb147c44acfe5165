// The stated confounds of a comparison: everything that differs between
// the arms besides the change under test, listed before any number, and
// what matches, listed too. Read from the modules (producers section,
// target_features section, memory limits, imports; a native library's ELF
// facts, native-facts.js), the allocator their exports name and the one the
// heap census recognised (a native library: the malloc it called), and how
// much of each arm's allocations its counting pass saw (counting.js).
import { COVERAGE_WORDS } from './counting.js';

const producersText = (p) =>
  p
    ? Object.entries(p)
        .map(([field, values]) => `${field}: ${values.join(', ')}`)
        .join('; ')
    : 'no producers section';

// What is compared, and how each arm's value reads (null: not said of
// this arm).
const ASPECTS = [
  ['toolchain (producers section)', (r) => r.toolchain ?? producersText(r.producers)],
  ['allocator (exports)', (r) => r.allocator.exports],
  // Not known before the run (undefined): then not listed.
  [
    'allocator (heap census)',
    (r) => (r.allocator.census === undefined ? null : (r.allocator.census ?? 'not recognised')),
  ],
  ['allocation counting', (r) => COVERAGE_WORDS[r.counting] ?? null],
  [
    'memory limits',
    (r) => (r.kind === 'native' ? 'no linear memory (a native library)' : r.memoryLimits.join(', ') || 'no memory'),
  ],
  ['imports', (r) => r.imports.join(', ') || 'none'],
  ['feature sections (target_features)', (r) => (r.kind === 'native' ? null : r.features.join(' ') || 'none declared')],
];

// Also stated when an arm is a native library (docs/compare.md, "The
// native yardstick").
const NATIVE_ASPECTS = [
  ['compiler flags', (r) => r.flags ?? 'not recorded'], // a wasm module keeps none
  ['CPU features', (r) => r.cpu ?? `wasm: ${r.features.join(' ') || 'no target_features declared'}`],
];

/**
 * arms: per-arm results (analyze-compare.js armResult; the boundary arm
 * left out). Returns { differs: [{ aspect, values: { arm: text } }],
 * matches: [{ aspect, value }] }.
 */
export function compareConfounds(arms) {
  const differs = [];
  const matches = [];
  const aspects = arms.some((r) => r.kind === 'native') ? [...ASPECTS, ...NATIVE_ASPECTS] : ASPECTS;
  for (const [aspect, read] of aspects) {
    const values = Object.fromEntries(arms.map((r) => [r.name, read(r)]).filter(([, v]) => v !== null));
    if (Object.keys(values).length === 0) continue;
    const distinct = new Set(Object.values(values));
    if (distinct.size === 1) matches.push({ aspect, value: [...distinct][0] });
    else differs.push({ aspect, values });
  }
  return { differs, matches };
}
