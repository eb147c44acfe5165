// Peak RSS of a host process running the library's soak() (src/index.js):
// N calls (default 1 M) of soak/modules/empty.wasm --call noop, with `out`
// (the log on disk) and without (the log kept in the host's memory), each in
// a fresh node process, in alternating rounds (default 3), side by side.
// Prints each mode's median peak RSS (the whole process: the worker thread
// is in it) and wall time, and the ratio of the two.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const N = Number(process.argv[2] ?? 1_000_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const root = fileURLToPath(new URL('..', import.meta.url));
const library = pathToFileURL(join(root, 'src/index.js')).href;
const module = join(root, 'soak/modules/empty.wasm');

const dir = mkdtempSync(join(tmpdir(), 'wasm-soak-libmem-'));

/** One soak in a fresh process; out null: without out. Returns { rssMiB, ms, status }. */
function once(out) {
  const options = { module, call: 'noop', iterations: N, seed: 1, ...(out ? { out, format: [] } : {}) };
  // A script file, not --eval: the worker inherits the host's flags, and --input-type fails in it.
  const script = join(dir, 'host.mjs');
  writeFileSync(
    script,
    `const { soak } = await import(${JSON.stringify(library)});
const t = performance.now();
const s = await soak(${JSON.stringify(options)});
console.log(JSON.stringify({ rssMiB: process.resourceUsage().maxRSS / 1024, ms: performance.now() - t, status: s.status }));
`,
  );
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`soak failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs = { disk: [], memory: [] };
try {
  for (let r = 0; r < ROUNDS; r++) {
    const out = join(dir, `r${r}`);
    // Alternate which goes first, so that a trend in the machine's load is shared.
    const order = r % 2 ? ['memory', 'disk'] : ['disk', 'memory'];
    for (const mode of order) runs[mode].push(once(mode === 'disk' ? out : null));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const row = (mode) => {
  const rss = median(runs[mode].map((x) => x.rssMiB));
  const ms = median(runs[mode].map((x) => x.ms));
  console.log(
    `  ${mode === 'disk' ? 'with out   ' : 'without out'}: peak RSS ${rss.toFixed(1)} MiB, ${(ms / 1000).toFixed(2)} s`,
  );
  return rss;
};
console.log(`library soak() of ${N.toLocaleString('en')} calls of empty.wasm, ${ROUNDS} rounds, medians:`);
const disk = row('disk');
const memory = row('memory');
console.log(
  `  peak RSS without out / with out: ×${(memory / disk).toFixed(2)} (+${(memory - disk).toFixed(1)} MiB; the log is 32 bytes per call)`,
);
