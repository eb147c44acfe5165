// The photon workload with one bug: the decoded image is never .free()d, so only the garbage collector's finalizer frees it.
import { photonScenario } from './photon.mjs';

export default photonScenario({ name: 'photon-unfreed', unfreed: true });
