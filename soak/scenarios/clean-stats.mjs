// The `clean` fixture (soak/fixtures/clean.c) with its live and heap bytes
// exposed through stats(). See soak/README.md for what it models.
import { fixtureStatsScenario } from './_fixture-stats.mjs';

export default fixtureStatsScenario('clean');
