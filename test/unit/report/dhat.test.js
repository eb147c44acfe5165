// dhat.json's sites (src/report/dhat.js sitesDhat) on sites built by hand:
// two functions of one name stay two frames, modules are named, allocations
// outside calls have their own outermost frame. dhat.json read by Valgrind's
// DHAT viewer in Chromium: test/e2e/long/dhat-browser.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SITE_NO_OP, SITE_VALUE_FIELDS } from '../../../src/protocol.js';
import { sitesDhat } from '../../../src/report/dhat.js';

test('sitesDhat: two functions of one name stay two frames, modules are named, allocations outside calls have their own outermost frame', () => {
  const frame = (index, name) => ({ index, name, from: 'name section', offset: 100 + index });
  const raw = {
    frames: 16,
    modules: [{ framed: 2 }, { framed: 1 }],
    sites: [
      { module: 0, op: 0, frames: [frame(1, 'alloc'), frame(2, 'run')] },
      { module: 0, op: 0, frames: [frame(3, 'alloc'), frame(2, 'run')] },
      { module: 1, op: SITE_NO_OP, frames: [frame(1, 'alloc')] },
    ],
    snapshots: [
      { calls: 0, values: [] },
      { calls: 10, values: [8, 1, 1, 8, 0, 16, 2, 2, 16, 0, 4, 1, 1, 4, 0] },
      { calls: 20, values: [0, 0, 2, 16, 2, 32, 4, 4, 32, 0, 4, 1, 1, 4, 0] },
    ],
  };
  assert.equal(raw.snapshots[1].values.length, 3 * SITE_VALUE_FIELDS);
  const d = sitesDhat(raw, ['step'], 'wasm-soak run m.wasm --sites');
  const names = d.pps.map((p) => p.fs.map((i) => d.ftbl[i]));
  assert.deepEqual(names, [
    ['alloc (module 0)', 'run (module 0)', 'op step'],
    ['alloc (module 0) (func[3])', 'run (module 0)', 'op step'],
    ['alloc (module 1)', '(outside calls)'],
  ]);
  // t-gmax: the snapshot with the most live bytes of all sites (36 at call 20 against 28 at call 10).
  assert.equal(d.tg, 20);
  assert.equal(d.te, 20);
  const [a, b] = d.pps;
  assert.deepEqual([a.mb, a.mbk, a.gb, a.eb, a.tb, a.tbk], [8, 1, 0, 0, 16, 2]);
  // Lifetimes: the area under live blocks, 1 block from call 0 to 10 (half of it, by trapezoid) and back to 0.
  assert.equal(a.tl, 10);
  assert.equal(b.tl, 2 * 5 + 3 * 10);
});
