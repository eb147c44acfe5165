// A realistic, clean sql.js workload: weighted insert / select (prepared,
// then freed) / update / delete on a table bounded to 1000 rows.
// Needs the sql.js package (a devDependency).
import { sqljsScenario } from './_sqljs-workload.mjs';

export default sqljsScenario({ name: 'sqljs', leakStatements: false });
