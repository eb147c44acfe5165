// The snappy workload with one bug: a cache of compressed texts, each in linear memory, that never evicts.
import { snappyScenario } from './snappy.mjs';

export default snappyScenario({ name: 'snappy-leak', leak: true });
