// The glue's objects in the analysis (src/analysis/objects.js): counts
// after warm-up from the snapshots, the garbage the census saw, and what the
// objects say of each memory finding.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { garbageHeld, objectsSummary, withObjects } from '../../../src/analysis/objects.js';

/** objects.json of one class: its totals and snapshots [iteration, created, freed, reclaimed, collected]. */
function objectsOf({ name = 'Doc', registry = true, freeable = true, totals, snapshots }) {
  const [created, freed, reclaimed, collected] = totals;
  return {
    classes: [
      {
        name,
        registry,
        freeable,
        created,
        freed,
        reclaimed,
        collected,
        held: created - freed - reclaimed - collected,
        createdBy: [{ op: 'edit', count: created }],
      },
    ],
    snapshots: snapshots.map(([iteration, ...counts]) => ({ iteration, classes: [[name, ...counts]] })),
  };
}

const growth = { kind: 'growth', cause: 'heap-end', series: 'memory', slope: { perKiloIterations: 1000 } };

test('objectsSummary counts what happened after warm-up, from the last snapshot before it', () => {
  const s = objectsSummary(
    objectsOf({
      totals: [1000, 100, 800, 0],
      snapshots: [
        [0, 0, 0, 0, 0],
        [200, 200, 100, 50, 0],
        [600, 600, 100, 400, 0],
      ],
    }),
    300,
  );
  assert.deepEqual(s.classes[0].afterWarmup, { created: 800, freed: 0, reclaimed: 750, collected: 0, held: 50 });
});

test('withObjects: growth while objects the application could free were left to the collector is unfreed-objects', () => {
  const s = objectsSummary(objectsOf({ totals: [1000, 0, 990, 0], snapshots: [[0, 0, 0, 0, 0]] }), 0);
  const r = withObjects([growth], [{ kind: 'startup-growth' }], s, true);
  assert.equal(r.findings.length, 1);
  assert.equal(r.findings[0].kind, 'unfreed-objects');
  assert.equal(r.findings[0].cause, undefined);
  assert.deepEqual(r.findings[0].classes[0], {
    name: 'Doc',
    created: 1000,
    freed: 0,
    reclaimed: 990,
    collected: 0,
    held: 10,
    op: 'edit',
  });
  assert.deepEqual(r.notes, [], 'growth garbage explains is no start-up note');
});

test('withObjects: objects all freed by the application leave the findings as they are', () => {
  const s = objectsSummary(objectsOf({ totals: [1000, 1000, 0, 0], snapshots: [[0, 0, 0, 0, 0]] }), 0);
  assert.deepEqual(withObjects([growth], [], s, true), { findings: [growth], notes: [] });
});

test('withObjects: without held live bytes a flat live series says nothing of the collector', () => {
  const s = objectsSummary(objectsOf({ totals: [1000, 0, 990, 0], snapshots: [[0, 0, 0, 0, 0]] }), 0);
  const r = withObjects([growth], [], s, false);
  assert.deepEqual(r.findings, [growth]);
  assert.equal(r.notes[0].kind, 'objects-left-to-gc');
});

test('withObjects: no memory finding, material garbage is unfreed-objects; little garbage is a note', () => {
  const s = objectsSummary(objectsOf({ totals: [1000, 0, 990, 0], snapshots: [[0, 0, 0, 0, 0]] }), 0);
  const big = { peakBytes: 6 << 20, memoryBytes: 8 << 20, share: 0.75, atIteration: 10 };
  const small = { peakBytes: 64 << 10, memoryBytes: 8 << 20, share: 0.008, atIteration: 10 };
  assert.equal(withObjects([], [], s, true, big).findings[0].kind, 'unfreed-objects');
  const r = withObjects([], [], s, true, small);
  assert.deepEqual(r.findings, []);
  assert.equal(r.notes[0].kind, 'objects-left-to-gc');
});

test('withObjects: a glue that frees only by finalizers (no free method) makes such growth a note', () => {
  const s = objectsSummary(objectsOf({ freeable: false, totals: [1000, 0, 990, 0], snapshots: [[0, 0, 0, 0, 0]] }), 0);
  const r = withObjects([growth], [], s, true);
  assert.deepEqual(r.findings, []);
  assert.equal(r.notes[0].kind, 'gc-garbage');
  assert.equal(r.notes[0].series, 'memory');
});

test('withObjects: a leak of live bytes with a class never freed and collected without a free is unfreed-objects, lost', () => {
  const leak = { kind: 'leak', series: 'live-bytes', slope: { perKiloIterations: 1000 } };
  const s = objectsSummary(objectsOf({ registry: false, totals: [1000, 0, 0, 995], snapshots: [[0, 0, 0, 0, 0]] }), 0);
  const r = withObjects([leak], [], s, true);
  assert.equal(r.findings[0].kind, 'unfreed-objects');
  assert.equal(r.findings[0].lost, true);
  assert.equal(r.findings[0].classes[0].collected, 995);
});

test('withObjects: a leak of objects still held names them, and stays a leak', () => {
  const leak = { kind: 'leak', series: 'live-bytes', slope: { perKiloIterations: 1000 } };
  const s = objectsSummary(objectsOf({ name: 'Font', totals: [1000, 0, 0, 0], snapshots: [[0, 0, 0, 0, 0]] }), 0);
  const r = withObjects([leak], [], s, true);
  assert.equal(r.findings[0].kind, 'leak');
  assert.equal(r.findings[0].objects[0].name, 'Font');
  assert.equal(r.findings[0].objects[0].held, 1000);
});

test('garbageHeld: sampled live bytes minus held ones (interpolated), at their peak after warm-up', () => {
  const census = {
    censusLive: { iter: [0, 100, 200, 300], value: [10, 500, 90, 700] },
    censusLiveHeld: { iter: [0, 400], value: [0, 400] },
  };
  const memory = { iter: [0], value: [1000] };
  const g = garbageHeld(census, memory, 150);
  assert.deepEqual(g, { peakBytes: 400, atIteration: 300, memoryBytes: 1000, share: 0.4 });
  assert.equal(garbageHeld({ censusLive: census.censusLive }, memory, 0), null, 'no held samples: no garbage known');
});
