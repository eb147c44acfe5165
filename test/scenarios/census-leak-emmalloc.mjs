// The `leak-emmalloc` fixture with its own live-bytes counter exposed through stats(),
// for the heap census's exactness test (test/e2e/census.test.js).
import { fixtureStatsScenario } from '../../soak/scenarios/_fixture-stats.mjs';

export default fixtureStatsScenario('leak-emmalloc');
