// `wasm-soak init`: writes a scenario that loads a module the way its glue
// wants and runs one op that works, after trying it. The module runs in a
// child process (explore.js) at each step, so a crash or hang there is
// reported, not suffered.
import { fork } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { EXIT, SoakError, usageError } from '../errors.js';
import { declaredSignatures } from './declared-types.js';
import { loadSource, missingAsImports } from './load-source.js';
import { draftSource, KIND_WORDS, opName, PLACEHOLDER, scenarioSource } from './scenario-source.js';
import { resolveTarget } from './target.js';

/** How long one child (exploring, or verifying an op) may take before init gives up on it. */
const CHILD_LIMIT_MS = 120_000;
/** Calls of the written op init runs before it says the scenario works. */
const VERIFY_CALLS = 200;
const SEED = 1;
const EXPLORE = new URL('./explore.js', import.meta.url);

/** Runs explore.js with request; resolves { result } or { error, trying, stderr }. */
function child(request) {
  return new Promise((done) => {
    const proc = fork(EXPLORE, [JSON.stringify(request)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    let trying = null;
    let reply = null;
    proc.stderr.on('data', (d) => {
      stderr = (stderr + d).slice(-2000);
    });
    proc.on('message', (m) => {
      if (m.trying) trying = m.trying;
      else reply = m;
    });
    const timer = setTimeout(() => {
      reply = { error: `it ran longer than ${CHILD_LIMIT_MS / 1000} s` };
      proc.kill('SIGKILL');
    }, CHILD_LIMIT_MS);
    proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      done({
        ...(reply ?? { error: `the process exited (${signal ?? `code ${code}`}) before it answered` }),
        trying,
        stderr,
      });
    });
  });
}

const failed = (what, reply) =>
  new SoakError(
    'WS_EINIT',
    `init could not ${what}: ${reply.error}${reply.trying ? ` (while trying ${reply.trying})` : ''}.${reply.stderr ? `\n${reply.stderr.trim()}` : ''}`,
    {
      fix: 'Write the scenario by hand (docs/cli.md, "Scenarios"); run the module alone with node to see why it fails.',
      exitCode: EXIT.FAILED,
    },
  );

/**
 * Writes the scenario for operand (a package name, glue file or .wasm) to
 * out (default: <name>.soak.mjs in the current folder), never over an
 * existing file unless force. Returns { file, kind, op, calls, reach,
 * placeholder }: reach, what the probe saw of the op ({ calls: calls into
 * the module per op call, allocates }, null when no wasm instance was seen);
 * placeholder true when no call worked with random arguments, and the op
 * written is one that fails a run until it is replaced (calls 0). Throws
 * exit-2 SoakErrors for what it cannot load and exit-3 ones when the
 * module fails when loaded.
 */
export async function init({ operand, out = null, force = false }) {
  const target = resolveTarget(operand, out ? dirname(resolve(out)) : process.cwd());
  const file = resolve(out ?? `${target.name}.soak.mjs`);
  if (existsSync(file) && !force) {
    throw usageError('WS_EEXIST', `${file} exists already.`, 'Give another file with -o, or --force to write over it.');
  }
  if (target.kind === 'assemblyscript' && missingAsImports(target.imports).length > 0) {
    throw usageError(
      'WS_EGLUE',
      `${target.wasm} imports ${missingAsImports(target.imports).join(', ')}, which init cannot provide.`,
      'Write a scenario whose setup(ctx) instantiates the module with its imports (docs/cli.md, "Scenarios").',
    );
  }
  // A relative URL (the scenario imports and reads the module by one): what URL parsing would
  // change, a backslash read as '/', a newline or tab dropped, '#' and '?' cut off, is escaped.
  const rel = (path) => {
    const r = relative(dirname(file), path)
      .split(sep)
      .join('/')
      .replace(/[%\\\t\n\r#?]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
    return r.startsWith('.') ? r : `./${r}`;
  };
  try {
    return await writeScenario({ target, operand, file, rel });
  } catch (err) {
    rmSync(file, { force: true }); // no half-written scenario is left behind
    throw err;
  }
}

/** init's steps once the file is chosen: explore in a child, write, verify in a fresh child. */
async function writeScenario({ target: given, operand, file, rel }) {
  let target = given;
  const numeric = ['assemblyscript', 'wasi-reactor', 'plain'].includes(target.kind);
  const explore = async () => {
    writeFileSync(file, draftSource(loadSource(target, [], rel)));
    return child({
      mode: 'explore',
      scenario: file,
      package: target.kind === 'package' && !target.webGlue,
      numeric,
      seed: SEED,
    });
  };
  let reply = await explore();
  let note = null;
  const { initError = null, working: found = [] } = reply.result ?? {};
  if (target.kind === 'package' && (initError || found.length === 0)) {
    if (target.webGlues.length === 0 && initError) throw failed(`load ${operand}`, { error: `its ${initError}` });
    if (target.webGlues.length > 0) {
      // An entry that does not load under Node, wants fetch() or a browser, or takes only inputs it validates: its wasm-bindgen glue loads under Node.
      const first = reply;
      target = { ...target, webGlue: target.webGlues[0] };
      const why = !reply.result
        ? `its entry failed under Node (${reply.error})`
        : initError
          ? `its entry's ${initError} under Node`
          : 'no call of its entry worked with random arguments';
      note = `The package's wasm-bindgen glue (${target.webGlue.specifiers?.glue ?? rel(target.webGlue.glue)}), loaded directly: ${why}.`;
      reply = await explore();
      if (first.result && !reply.result) {
        // The glue does not load where the entry did: keep the entry, placeholder and all.
        target = { ...target, webGlue: null };
        note = null;
        reply = await explore();
      }
    }
  }
  if (!reply.result) throw failed(`load ${operand}`, reply);
  if (reply.result.initError) throw failed(`load ${operand}`, { error: `its ${reply.result.initError}` });
  const { steps, entries, working, skipped, reached, allocator } = reply.result;
  const kind = target.webGlue ? 'wasm-bindgen-web' : target.kind;
  const what = { name: target.name, operand, kind, flavour: target.flavour, note };
  const load = loadSource(target, steps, rel);
  const declared = declaredSignatures(target);
  const source = (op) => scenarioSource({ what, load, op, entries, declared, reached, out: basename(file) });
  const tried = [...skipped];
  for (const op of working) {
    writeFileSync(file, source(op));
    const check = await child({ mode: 'verify', scenario: file, calls: VERIFY_CALLS, seed: SEED + 1 });
    if (check.result) {
      return { file, kind: KIND_WORDS[kind], op: opName(op), calls: VERIFY_CALLS, reach: op.reach, placeholder: false };
    }
    // It worked on the probe's inputs, not on others: say so in the placeholder's comment.
    tried.push(`${opName(op)} failed on other random inputs: ${check.error.split('\n')[0].slice(0, 160)}`);
  }
  writeFileSync(file, source({ form: 'placeholder', tried, allocator }));
  return { file, kind: KIND_WORDS[kind], op: PLACEHOLDER, calls: 0, placeholder: true };
}
