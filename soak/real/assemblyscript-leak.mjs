// The AssemblyScript workload with one bug: records taken by the host are pinned and never unpinned.
import { assemblyscriptScenario } from './assemblyscript.mjs';

export default assemblyscriptScenario({ name: 'assemblyscript-leak', leak: true });
