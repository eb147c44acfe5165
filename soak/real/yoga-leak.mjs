// The yoga workload with one bug: each layout tree is dropped without freeRecursive().
import { yogaScenario } from './yoga.mjs';

export default yogaScenario({ name: 'yoga-leak', leak: true });
