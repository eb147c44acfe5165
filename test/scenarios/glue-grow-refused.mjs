// Test scenario: glue-grow.mjs under a V8 page limit of 64 pages, below the
// memory's declared maximum of 1000: the engine refuses the fourth grow of
// 16 pages (to 65) and every one after it.
import { glueGrow } from './glue-grow.mjs';

export default glueGrow({ engineLimitPages: 64 });
