// The harfbuzz workload with one bug: a new Font per call, kept in a cache that is never evicted.
import { harfbuzzScenario } from './harfbuzz.mjs';

export default harfbuzzScenario({ name: 'harfbuzz-leak', leak: true });
