// The zstd workload with one bug: the per-message compression contexts are never freed.
import { zstdScenario } from './zstd.mjs';

export default zstdScenario({ name: 'zstd-leak', leak: true });
