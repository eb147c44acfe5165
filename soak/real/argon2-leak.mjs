// The argon2 workload with one bug: a cache of raw digests that never evicts.
import { argon2Scenario } from './argon2.mjs';

export default argon2Scenario({ name: 'argon2-leak', leak: true });
