// The sqljs workload on sql.js's debug build (names kept): with
// --count-allocs the counting pass sees SQLite's allocations, so a clean run
// comes out stable on live bytes, not just on linear memory.
import { sqljsScenario } from './_sqljs-workload.mjs';

export default sqljsScenario({ name: 'sqljs-debug', leakStatements: false, debug: true });
