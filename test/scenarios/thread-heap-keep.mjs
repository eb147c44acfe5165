// Test scenario: a worker thread that gets a job per call and keeps what
// each brings (a queue never drained): its JS heap grows while the soak
// worker's stays flat (test/fixtures/threads/job-scenario.mjs).
import { jobScenario } from '../fixtures/threads/job-scenario.mjs';

export default jobScenario(true);
