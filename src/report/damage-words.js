// What a damaged log lost, in words, for the commands that read one
// (`report`, `export`): the analysis's facts (damageOf) worded once.
import { damageOf } from '../analysis/log-reader.js';

/** One sentence on what a damaged log lost and where, or null when it is intact. */
export function damageWords(path, data) {
  const d = damageOf(data);
  if (!d) return null;
  const where = d.stretches
    .map((s) => {
      const after = s.afterIteration == null ? 'the start' : `iteration ${s.afterIteration}`;
      const before = s.beforeIteration == null ? 'the end' : `iteration ${s.beforeIteration}`;
      return `${s.recordsEstimated ? 'about ' : ''}${s.records} at byte ${s.offset} (${s.bytes} bytes, between ${after} and ${before})`;
    })
    .join('; ');
  return `${path} is damaged: ${d.records} records lost in ${d.stretches.length} stretch${d.stretches.length === 1 ? '' : 'es'}: ${where}; ${d.calls} calls are missing, every intact record was kept.`;
}
