// The soak suite's fixture modules behave as their names say. Each module is
// loaded directly with node:wasi (no runner involved) and driven in a plain
// loop; the assertions check the behaviour the analysis is meant to detect.
// Their rebuild from source: test/e2e/long/fixtures-build.test.js.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { WASI } from 'node:wasi';

const PAGE = 65536;
const root = new URL('../../../', import.meta.url);
const soakModule = (name) => new URL(`soak/modules/${name}.wasm`, root);
const testModule = (name) => new URL(`test/fixtures/${name}.wasm`, root);

// Instantiates a soak fixture as a WASI reactor and returns its exports.
async function loadFixture(name) {
  const wasi = new WASI({ version: 'preview1', returnOnExit: true });
  const bytes = readFileSync(soakModule(name));
  const { instance } = await WebAssembly.instantiate(bytes, wasi.getImportObject());
  wasi.initialize(instance);
  return instance.exports;
}

// Calls step(i) for i in [0, n) and samples every `every` calls; also
// records the call index of each linear-memory growth.
function drive(e, n, every = 1000) {
  const samples = [];
  const grows = [];
  let bytes = e.memory.buffer.byteLength;
  const start = bytes;
  for (let i = 0; i < n; i++) {
    assert.ok(e.step(i) >= 0, `step(${i}) reported an allocation failure`);
    if (e.memory.buffer.byteLength !== bytes) {
      bytes = e.memory.buffer.byteLength;
      grows.push(i);
    }
    if ((i + 1) % every === 0) {
      samples.push({ i: i + 1, live: e.live_bytes(), heap: e.heap_bytes(), memory: bytes });
    }
  }
  return { start, samples, grows, end: bytes };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

test('clean: live bytes bounded, memory plateaus early', async () => {
  const e = await loadFixture('clean');
  const { samples, grows, end } = drive(e, 20000);
  for (const s of samples) assert.ok(s.live <= 512 * 1024, `live ${s.live} B at ${s.i} calls`);
  // One late 64 KiB step is realistic for dlmalloc; a trend is not.
  const late = grows.filter((i) => i >= 2000);
  assert.ok(late.length <= 2, `memory grew ${late.length} times after call 2000 (${late})`);
  assert.ok(end <= 1024 * 1024, `memory ended at ${end} B`);
});

test('leak: live bytes grow about linearly (24-48 B a call)', async () => {
  const e = await loadFixture('leak');
  const { samples, end, start } = drive(e, 20000);
  const at = (i) => samples.find((s) => s.i === i).live;
  const perCall = (at(20000) - at(4000)) / 16000;
  assert.ok(perCall > 24 && perCall < 48 + 8, `live bytes grew ${perCall.toFixed(1)} B a call`);
  // Steady: each quarter of the run adds live bytes.
  for (const [a, b] of [
    [5000, 10000],
    [10000, 15000],
    [15000, 20000],
  ]) {
    assert.ok(at(b) - at(a) > 5000 * 20, `live bytes between ${a} and ${b}: ${at(b) - at(a)}`);
  }
  assert.ok(end - start >= 8 * PAGE, `memory grew only ${end - start} B`);
});

test('fragment: heap grows through the whole run, live bytes bounded', async () => {
  const e = await loadFixture('fragment');
  const { samples, grows, start, end } = drive(e, 20000);
  const maxLive = Math.max(...samples.map((s) => s.live));
  assert.ok(maxLive <= 128 * 1024, `live bytes reached ${maxLive}`);
  const heap = (i) => samples.find((s) => s.i === i).heap;
  for (const [a, b] of [
    [5000, 10000],
    [10000, 15000],
    [15000, 20000],
  ]) {
    assert.ok(heap(b) - heap(a) >= 256 * 1024, `heap grew ${heap(b) - heap(a)} B between ${a} and ${b}`);
  }
  assert.ok(heap(20000) > 20 * maxLive, `heap ${heap(20000)} vs live ${maxLive}`);
  assert.ok(end - start >= 16 * PAGE, `memory grew only ${end - start} B`);
  assert.ok(grows.filter((i) => i >= 10000).length >= 5, `growth events: ${grows}`);
  assert.ok(grows.filter((i) => i >= 2000).length > grows.length / 2, `growth events: ${grows}`);
});

test('slowdown: late calls clearly slower, memory flat', async () => {
  const e = await loadFixture('slowdown');
  const start = e.memory.buffer.byteLength;
  // Time batches of 50 calls; compare the median batch early and late.
  const batch = 50;
  const times = [];
  for (let b = 0; b < 20000 / batch; b++) {
    const t0 = process.hrtime.bigint();
    for (let i = b * batch; i < (b + 1) * batch; i++) e.step(i);
    times.push(Number(process.hrtime.bigint() - t0));
  }
  const early = median(times.slice(1000 / batch, 3000 / batch));
  const late = median(times.slice(18000 / batch));
  assert.ok(late >= 1.5 * early, `late ${late} ns vs early ${early} ns per ${batch} calls`);
  assert.equal(e.memory.buffer.byteLength, start, 'memory must not grow');
  assert.equal(e.heap_bytes(), 0);
});

test('trap: step traps at iteration 500, not before', async () => {
  const e = await loadFixture('trap');
  for (let i = 0; i < 500; i++) e.step(i);
  assert.throws(() => e.step(500), WebAssembly.RuntimeError);
  assert.equal(typeof e.step(501), 'number');
});

test('drift: __stack_pointer moves down every call, memory flat', async () => {
  const e = await loadFixture('drift');
  const sp0 = e.__stack_pointer.value;
  const memory = e.memory.buffer.byteLength;
  for (let i = 0; i < 1000; i++) e.step(i);
  assert.equal(e.__stack_pointer.value, sp0 - 16 * 1000);
  assert.equal(e.stack_pointer(), e.__stack_pointer.value);
  assert.equal(e.live_bytes(), 16 * 1000);
  assert.equal(e.memory.buffer.byteLength, memory);
});

test('empty: noop exports exist and touch nothing', async () => {
  const e = await loadFixture('empty');
  const before = Buffer.from(e.memory.buffer).toString('base64');
  for (let i = 0; i < 1000; i++) {
    e.noop();
    e.noop_i(i);
  }
  assert.equal(e.noop.length, 0);
  assert.equal(e.noop_i.length, 1);
  assert.equal(Buffer.from(e.memory.buffer).toString('base64'), before);
});

test('parse: tokenizes a buffer allocated with the exported malloc', async () => {
  const e = await loadFixture('parse');
  const text = new TextEncoder().encode('SELECT a_1, b FROM t WHERE x = 42;');
  const ptr = e.malloc(text.length);
  assert.ok(ptr > 0);
  new Uint8Array(e.memory.buffer, ptr, text.length).set(text);
  assert.equal(e.parse(ptr, text.length), 8);
  e.free(ptr);
  assert.equal(e.parse(0, -1), -1);
  const heap = e.heap_bytes();
  for (let i = 0; i < 2000; i++) assert.ok(e.step(i) > 0);
  assert.ok(e.heap_bytes() - heap <= PAGE, 'step frees what it allocates');
});

test('test fixtures: imported memory, minified names, imports, i64, garbage', async () => {
  const memory = new WebAssembly.Memory({ initial: 1 });
  const im = await WebAssembly.instantiate(readFileSync(testModule('imported-memory')), { env: { memory } });
  for (let i = 0; i < 3000; i++) im.instance.exports.step(i);
  assert.equal(memory.buffer.byteLength, 4 * PAGE);

  const min = await WebAssembly.instantiate(readFileSync(testModule('minified')));
  assert.deepEqual(Object.keys(min.instance.exports).sort(), ['O', 'a']);
  assert.ok(min.instance.exports.O instanceof WebAssembly.Memory);
  assert.equal(min.instance.exports.a(5), 5);

  const needs = readFileSync(testModule('needs-import'));
  await assert.rejects(WebAssembly.instantiate(needs, {}), TypeError);
  const logged = [];
  const ni = await WebAssembly.instantiate(needs, { env: { host_log: (x) => logged.push(x) } });
  for (let i = 0; i < 1000; i++) ni.instance.exports.step(i);
  assert.equal(logged.length, 10);

  const i64 = await WebAssembly.instantiate(readFileSync(testModule('i64-args')));
  assert.equal(i64.instance.exports.mix(1, 2n, 0.5), 3.5);
  assert.throws(() => i64.instance.exports.mix(1, 2, 0.5), TypeError);

  const garbage = readFileSync(testModule('not-wasm'));
  assert.equal(WebAssembly.validate(garbage), false);
  await assert.rejects(WebAssembly.compile(garbage), WebAssembly.CompileError);
});

// A stand-in for the runner's ctx: seeded helpers with the same shapes.
function fakeContext(seed) {
  let s = seed >>> 0;
  const random = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const tracked = [];
  return {
    random,
    int,
    pick: (a) => a[int(0, a.length - 1)],
    bytes: (n) => Uint8Array.from({ length: n }, () => int(0, 255)),
    string: (n) => Array.from({ length: n }, () => String.fromCharCode(int(97, 122))).join(''),
    lognormal: (mu, sigma) =>
      Math.exp(mu + sigma * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())),
    iteration: 0,
    seed,
    tracked,
    track: (memory, label) => tracked.push({ memory, label }),
  };
}

// Runs `n` iterations of a scenario the way the runner does (weighted ops).
async function runScenario(path, n) {
  const scenario = (await import(new URL(path, root))).default;
  const ctx = fakeContext(42);
  const state = await scenario.setup(ctx);
  const ops = scenario.ops
    ? Object.values(scenario.ops).flatMap((op) => Array(op.weight).fill(op))
    : [{ run: (st, c) => scenario.iteration(st, c) }];
  for (let i = 0; i < n; i++) {
    ctx.iteration = i;
    await ctx.pick(ops).run(state, ctx);
  }
  const stats = scenario.stats?.(state);
  await scenario.teardown?.(state, ctx);
  return { scenario, ctx, stats };
}

const hasSqlJs = (() => {
  try {
    createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm');
    return true;
  } catch {
    return false;
  }
})();

test('sqljs scenarios: 200 iterations of weighted ops', { skip: !hasSqlJs && 'sql.js is not installed' }, async () => {
  for (const name of ['sqljs', 'sqljs-leak']) {
    const { scenario } = await runScenario(`soak/dev/${name}.mjs`, 200);
    assert.equal(scenario.name, name);
    assert.deepEqual(Object.keys(scenario.ops).sort(), ['delete', 'insert', 'select', 'update']);
  }
});

test('stats scenarios expose live and heap bytes', async () => {
  const clean = await runScenario('soak/scenarios/clean-stats.mjs', 3000);
  assert.equal(clean.ctx.tracked.length, 1);
  assert.ok(clean.ctx.tracked[0].memory instanceof WebAssembly.Memory);
  assert.ok(clean.stats.liveBytes > 0 && clean.stats.liveBytes < clean.stats.heapBytes);
  const leak = await runScenario('soak/scenarios/leak-stats.mjs', 3000);
  assert.ok(leak.stats.liveBytes > clean.stats.liveBytes);
  const frag = await runScenario('soak/scenarios/fragment-stats.mjs', 3000);
  assert.ok(frag.stats.heapBytes > 5 * frag.stats.liveBytes);
});

test('the suites name existing targets with known expectations', () => {
  const known = new Set([
    'stable',
    'stack-drift',
    'leak',
    'unfreed-objects',
    'fragmentation',
    'growth',
    'slowdown',
    'js-heap-growth',
    'budget',
  ]);
  const names = new Set();
  for (const dir of ['soak/', 'soak/dev/']) {
    const suite = JSON.parse(readFileSync(new URL(`${dir}suite.json`, root), 'utf8'));
    for (const t of suite.targets) {
      assert.ok(!names.has(t.name), `duplicate target ${t.name}`);
      names.add(t.name);
      if (t.arms) {
        // A comparison: its arms exist and its expect names winners among them.
        const arms = Array.isArray(t.arms) ? t.arms : Object.values(t.arms);
        for (const a of arms) assert.ok(existsSync(new URL(`${dir}${a}`, root)), `${t.name}: missing ${a}`);
        assert.deepEqual(Object.keys(t.expect).sort(), ['faster', 'smaller']);
        continue;
      }
      assert.ok(Boolean(t.module) !== Boolean(t.scenario), `${t.name}: exactly one of module/scenario`);
      assert.ok(existsSync(new URL(`${dir}${t.module ?? t.scenario}`, root)), `${t.name}: missing file`);
      for (const x of [t.expect].flat()) assert.ok(known.has(x), `${t.name}: unknown expect ${x}`);
    }
  }
});
