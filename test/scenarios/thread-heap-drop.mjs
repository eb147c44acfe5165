// Test scenario: a worker thread that gets a job per call and drops each
// when done: no heap grows (test/fixtures/threads/job-scenario.mjs).
import { jobScenario } from '../fixtures/threads/job-scenario.mjs';

export default jobScenario(false);
