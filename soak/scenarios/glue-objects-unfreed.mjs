// The glue-objects workload with free() forgotten: each Doc's block is
// freed only when the garbage collector runs the glue's finalizer.
import { glueObjectsScenario } from './glue-objects.mjs';

export default glueObjectsScenario({ name: 'glue-objects-unfreed', unfreed: true });
