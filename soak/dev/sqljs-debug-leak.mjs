// sqljs-leak on sql.js's debug build: the select op never frees its
// prepared statement; with --count-allocs the leak shows in live bytes.
import { sqljsScenario } from './_sqljs-workload.mjs';

export default sqljsScenario({ name: 'sqljs-debug-leak', leakStatements: true, debug: true });
