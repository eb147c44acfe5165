// The text of the scenario `wasm-soak init` writes: a header saying what was
// recognised and what to do next, load(), the scenario with its one op, and
// the module's API as commented calls to turn into more ops.
import { access, freeSource, opSource, quote } from './op.js';

/** What init recognised, as the header says it. */
export const KIND_WORDS = Object.freeze({
  package: 'an npm package, loaded through its own entry',
  'wasm-bindgen-nodejs': 'wasm-bindgen glue, --target nodejs (it reads its .wasm itself)',
  'wasm-bindgen-web': "wasm-bindgen glue, --target web (initSync with the module's bytes)",
  'wasm-bindgen-bundler': 'wasm-bindgen glue, --target bundler (instantiated here, as a bundler would)',
  emscripten: 'an Emscripten MODULARIZE factory (given the module as wasmBinary)',
  'emscripten-global':
    "Emscripten glue without MODULARIZE (run once with a Module object that carries the module's bytes, as a page sets one)",
  assemblyscript: 'an AssemblyScript module (its env imports provided here)',
  'wasi-reactor': 'a WASI reactor (node:wasi, _initialize called once)',
  plain: 'a module without imports',
});

const FLAVOUR_WORDS = { embind: ', with embind bindings', webidl: ', with WebIDL bindings' };

const IDENT = /^[A-Za-z_$][\w$]*$/;
const key = (name) => (IDENT.test(name) ? name : quote(name));

const WIDTH = 100;

/** text as // comment lines of at most WIDTH columns (a longer word stays whole). */
function comment(text) {
  const lines = [];
  let line = '//';
  // A line break inside a // comment would end it (a path with a newline): written as its escape.
  const oneLine = text.replace(/[\n\r\u2028\u2029]/g, (c) => JSON.stringify(c).slice(1, -1));
  for (const word of oneLine.split(' ')) {
    if (line.length + 1 + word.length > WIDTH && line !== '//') {
      lines.push(line);
      line = '//';
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

/** The name of the op init writes when no call works with random arguments. */
export const PLACEHOLDER = 'replaceMe';

/** What the placeholder op throws: the run fails at its first call and says why. */
export const PLACEHOLDER_ERROR =
  'replaceMe is the placeholder op wasm-soak init wrote because no call worked with random arguments: replace it with the calls your application makes (the API is listed at the end of the scenario)';

/** The op's name in the scenario. */
export function opName(op) {
  if (op.form === 'placeholder') return PLACEHOLDER;
  if (op.form === 'alloc') return 'allocateAndFree';
  const last = op.path.at(-1);
  if (op.form === 'factory') return `${op.factory}${last}`;
  return op.form === 'new' ? `new${last}` : last;
}

/**
 * A call's parameters as the listing shows them: its declared signature
 * ('(data: Uint8Array): ImageData'), else the names its source declares
 * ('(data)  1 parameter, types not declared'), else '(…)  N parameters'.
 */
function paramsText(e, declared) {
  const signature = e.kind === 'function' ? declared.get(e.path.at(-1)) : null;
  if (signature) return signature;
  const count = `${e.arity} parameter${e.arity === 1 ? '' : 's'}`;
  if (e.params?.length) return `(${e.params.join(', ')})  ${count}, types not declared`;
  return `(…)  ${count}`;
}

/** What the probe saw of a call, as the listing marks it. */
function reachText(reach) {
  if (!reach) return '';
  if (reach.constant) return '  [a constant]';
  if (reach.calls === 0) return '  [pure JS: never enters the module]';
  return `  [enters the module${reach.allocates ? ', allocates' : ''}]`;
}

/**
 * One commented line per API entry; the chosen op's marked, and what the
 * probe saw of those it found working (reached: explore.js's).
 * declared: declaredSignatures'.
 */
function apiLines(entries, op, declared, reached) {
  const lines = [];
  for (const e of entries) {
    const at = access('api', e.path);
    const same = op.path && op.path.join('.') === e.path.join('.');
    const seen = (form, factory) =>
      reachText(
        reached.find((r) => r.path.join('.') === e.path.join('.') && r.form === form && r.factory === factory)?.reach,
      );
    const mark = (form, factory) =>
      `${seen(form, factory)}${same && op.form === form && op.factory === factory ? '  <- the op above' : ''}`;
    if (e.kind === 'function') lines.push(`//   ${at}${paramsText(e, declared)}${mark('call', undefined)}`);
    else {
      // A method as .free(), an API function as api.destroy(made).
      const free = !e.free ? '' : Array.isArray(e.free) ? ` … ${freeSource(e.free, 'made')}` : ` … .${e.free}()`;
      const methods = e.methods.filter((m) => m !== e.free).slice(0, 12);
      const [params, count = ''] = paramsText(e, declared).split('  ');
      lines.push(`//   new ${at}${params}${free}${count ? `  ${count}` : ''}${mark('new', undefined)}`);
      for (const f of e.factories) lines.push(`//   ${at}.${f}(…)${free}${mark('factory', f)}`);
      if (methods.length) lines.push(`//     methods: ${methods.join(', ')}${e.methods.length - 1 > 12 ? ', …' : ''}`);
    }
  }
  return lines;
}

/** The imports, constants and load() as lines. */
function loadLines(load) {
  return [
    ...new Set(load.imports),
    '',
    ...load.consts,
    ...(load.consts.length ? [''] : []),
    '/** Loads the module the way its glue wants; returns { api, raw }: what the ops call, and the module’s own exports when the glue hands them out. */',
    'export async function load() {',
    ...load.body.map((line) => `  ${line}`),
    '}',
  ];
}

/** The draft explore.js loads before an op is chosen: imports and load() only. */
export function draftSource(load) {
  return [...loadLines(load), ''].join('\n');
}

/**
 * The placeholder op's body: comments saying why and what works, then the
 * throw that fails a run of it. op: { form: 'placeholder', tried, allocator }.
 */
function placeholderSource(op) {
  const lines = comment(
    `No call worked with random arguments${op.tried.length ? ` (${op.tried.join('; ')})` : ''}. Write here the calls your application makes, with the inputs it gives them (a real file, a parsed document), then delete the throw below.`,
  );
  if (op.allocator) {
    lines.push(
      "// What does work: the module's own allocator, which an op that allocates and frees would call as",
      ...opSource(op.allocator).map((line) => `//   ${line}`),
    );
  }
  return [...lines, `throw new Error(${quote(PLACEHOLDER_ERROR)});`];
}

/**
 * The scenario's text. what: { name, operand, kind, flavour, note }, load:
 * loadSource's, op: the chosen op (or a placeholder), entries: walkApi's,
 * declared: declaredSignatures', reached: explore.js's (what the probe saw
 * of each call it found working), out: the file's name.
 */
export function scenarioSource({ what, load, op, entries, declared = new Map(), reached = [], out }) {
  const kind = `${KIND_WORDS[what.kind]}${FLAVOUR_WORDS[what.flavour] ?? ''}`;
  const placeholder = op.form === 'placeholder';
  const param = placeholder ? '{ api, raw }, ctx' : '{ api }, ctx';
  const lines = [
    ...comment(`A soak scenario for ${what.name}, written by \`wasm-soak init ${what.operand}\`: ${kind}.`),
    ...(what.note ? comment(what.note) : []),
    ...comment(
      placeholder
        ? `No exported call worked with random arguments, so the op below, ${PLACEHOLDER}, is a placeholder that fails the run at its first call: replace it with the calls your application makes (the API is listed at the end, with what is known of each call's parameters). load() works as written.`
        : 'The op below is a call init found working with random arguments; add the calls your application makes as more ops (the API is listed at the end).',
    ),
    `// Run it: npx wasm-soak run ${out}`,
    '',
    ...loadLines(load),
    '',
    'export default {',
    `  name: ${quote(what.name)},`,
    '  setup() {',
    '    return load();',
    '  },',
    '  ops: {',
    `    ${key(opName(op))}: {`,
    `      ${op.awaits ? 'async ' : ''}run(${param}) {`,
    ...(placeholder ? placeholderSource(op) : opSource(op)).map((line) => `        ${line}`),
    '      },',
    '    },',
    '  },',
    '};',
    '',
  ];
  if (entries.length > 0) {
    lines.push(
      "// What the module's API offers (the arguments to fill in, with their types where the package declares them;",
      '// [enters the module]: init saw the call reach the wasm module, and [allocates]: its allocator or memory grow):',
      ...apiLines(entries, op, declared, reached),
      '',
    );
  }
  return lines.join('\n');
}
