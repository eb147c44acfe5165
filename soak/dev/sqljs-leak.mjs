// The sqljs workload with one bug: the select op never calls stmt.free(),
// so every select leaks a prepared statement (SQLite memory in the wasm
// heap, plus the JS object sql.js keeps in db.statements).
import { sqljsScenario } from './_sqljs-workload.mjs';

export default sqljsScenario({ name: 'sqljs-leak', leakStatements: true });
