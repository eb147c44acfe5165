// The stated confounds of a comparison: everything that differs between
// the arms besides the change under test, listed before any number, and
// what matches, listed too. Read from the modules (producers section,
// target_features section, memory limits, imports), the allocator their
// exports name and the one the heap census recognised, and how much of
// each arm's allocations its counting pass saw (counting.js).
import { COVERAGE_WORDS } from './counting.js';

const producersText = (p) =>
  p
    ? Object.entries(p)
        .map(([field, values]) => `${field}: ${values.join(', ')}`)
        .join('; ')
    : 'no producers section';

// What is compared, and how each arm's value reads.
const ASPECTS = [
  ['toolchain (producers section)', (r) => producersText(r.producers)],
  ['allocator (exports)', (r) => r.allocator.exports],
  // Not known before the run (undefined): then not listed.
  [
    'allocator (heap census)',
    (r) => (r.allocator.census === undefined ? null : (r.allocator.census ?? 'not recognised')),
  ],
  ['allocation counting', (r) => COVERAGE_WORDS[r.counting] ?? null],
  ['memory limits', (r) => r.memoryLimits.join(', ') || 'no memory'],
  ['imports', (r) => r.imports.join(', ') || 'none'],
  ['feature sections (target_features)', (r) => r.features.join(' ') || 'none declared'],
];

/**
 * arms: per-arm results (analyze-compare.js armResult; the boundary arm
 * left out). Returns { differs: [{ aspect, values: { arm: text } }],
 * matches: [{ aspect, value }] }.
 */
export function compareConfounds(arms) {
  const differs = [];
  const matches = [];
  for (const [aspect, read] of ASPECTS) {
    const values = Object.fromEntries(arms.map((r) => [r.name, read(r)]));
    if (Object.values(values).every((v) => v === null)) continue;
    const distinct = new Set(Object.values(values));
    if (distinct.size === 1) matches.push({ aspect, value: [...distinct][0] });
    else differs.push({ aspect, values });
  }
  return { differs, matches };
}
