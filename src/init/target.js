// What `wasm-soak init` was given, resolved without running it: an npm
// package installed where the scenario goes, a glue file (wasm-bindgen's or
// Emscripten's), or a .wasm module (whose glue is looked for next to it).

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { usageError } from '../errors.js';
import { glueKind, moduleKind, needsGlue } from '../module-kind.js';
import { inspectModule } from '../worker/targets/wasm-info.js';

const JS = new Set(['.js', '.mjs', '.cjs']);

/** The package folder of name as Node resolves it from dir (node_modules up the tree), or null. */
function packageDir(name, dir) {
  for (let d = resolve(dir); ; d = dirname(d)) {
    const candidate = join(d, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(d) === d) return null;
  }
}

/** Every .js/.mjs file under dir (not node_modules), at most depth folders down. */
function jsFiles(dir, depth = 4) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && depth > 0 && entry.name !== 'node_modules') out.push(...jsFiles(path, depth - 1));
    else if (entry.isFile() && JS.has(extname(entry.name))) out.push(path);
  }
  return out;
}

/**
 * The wasm-bindgen web glues inside a package folder, with their modules:
 * [{ glue, wasm, specifiers }]; specifiers: { glue, wasm } as the package's
 * subpaths when it has no exports map to refuse them, else null.
 */
function webGlues(dir, name) {
  const open = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).exports === undefined;
  const subpath = (file) => `${name}/${relative(dir, file).split(sep).join('/')}`;
  const found = [];
  for (const file of jsFiles(dir)) {
    const wasm = file.replace(/\.[cm]?js$/, '_bg.wasm');
    if (!existsSync(wasm)) continue;
    if (glueKind(readFileSync(file, 'utf8'))?.kind !== 'wasm-bindgen-web') continue;
    found.push({ glue: file, wasm, specifiers: open ? { glue: subpath(file), wasm: subpath(wasm) } : null });
  }
  return found;
}

/** The .wasm file an Emscripten glue loads: a quoted name in its text that exists next to it, or null (embedded). */
function emscriptenWasm(glue, text) {
  for (const [, name] of text.matchAll(/["']([\w.-]+\.wasm)["']/g)) {
    const path = join(dirname(glue), name);
    if (existsSync(path)) return path;
  }
  const own = glue.replace(/\.[cm]?js$/, '.wasm');
  return existsSync(own) ? own : null;
}

/** A glue file's target: { kind, flavour, glue, wasm, esm }; exit 2 when it is no glue init knows. */
function glueTarget(path) {
  const text = readFileSync(path, 'utf8');
  const found = glueKind(text);
  if (!found) {
    throw usageError(
      'WS_EGLUE',
      `${path} is not wasm-bindgen or Emscripten glue that init recognises.`,
      'Give init the package name, the glue that wasm-bindgen or Emscripten wrote, or the .wasm module itself.',
    );
  }
  const esm = /\bexport\s+(default|\{|function|class|const|let|\*)/.test(text) || path.endsWith('.mjs');
  if (found.kind.startsWith('emscripten')) return { ...found, glue: path, wasm: emscriptenWasm(path, text), esm };
  if (found.kind === 'wasm-bindgen-bundler') {
    // x.js imports x_bg.wasm and re-exports x_bg.js, which holds the API.
    const bg = path.endsWith('_bg.js') ? path : path.replace(/\.js$/, '_bg.js');
    return { ...found, glue: bg, wasm: bg.replace(/\.js$/, '.wasm'), esm: true };
  }
  const wasm = path.replace(/\.[cm]?js$/, '_bg.wasm');
  return { ...found, glue: path, wasm: existsSync(wasm) ? wasm : null, esm, newInit: /module_or_path/.test(text) };
}

/** The glue next to a module that needs one: x_bg.wasm → x.js (wasm-bindgen), x.wasm → x.js/x.mjs (Emscripten). */
function glueNextTo(path, kind) {
  const stem = kind === 'wasm-bindgen' ? path.replace(/_bg\.wasm$/, '') : path.replace(/\.wasm$/, '');
  const names =
    kind === 'wasm-bindgen' ? [`${stem}.js`, `${stem}_bg.js`] : [`${stem}.js`, `${stem}.mjs`, `${stem}.cjs`];
  return names.find((name) => existsSync(name) && glueKind(readFileSync(name, 'utf8'))) ?? null;
}

/** A .wasm file's target: its glue's, or { kind, wasm, info } when it loads without glue. */
function moduleTarget(path) {
  let info;
  try {
    info = inspectModule(readFileSync(path));
  } catch (err) {
    throw usageError('WS_EMODULE', `${path} is not a WebAssembly module: ${err.message}.`, 'Give init a .wasm file.');
  }
  const { kind } = moduleKind(info);
  if (needsGlue(kind)) {
    const glue = glueNextTo(path, kind);
    if (!glue) {
      throw usageError(
        'WS_EGLUE',
        `${path} is a ${kind} module, which runs only through the JS glue built with it, and no glue is next to it.`,
        `Give init the glue file (${basename(path).replace(/(_bg)?\.wasm$/, '.js')}) or the npm package that ships the module.`,
      );
    }
    return glueTarget(glue);
  }
  if (kind === 'wasi-command') {
    throw usageError(
      'WS_ECOMMAND',
      `${path} is a WASI command module (it exports _start), so its exports cannot be called repeatedly.`,
      'Build it as a reactor (clang -mexec-model=reactor).',
    );
  }
  if (kind === 'other') {
    const modules = [...new Set(info.imports.map((i) => i.module))].join(', ');
    throw usageError(
      'WS_EGLUE',
      `${path} imports from ${modules}, which init cannot provide.`,
      'Write a scenario whose setup(ctx) instantiates the module with its imports (docs/cli.md, "Scenarios").',
    );
  }
  return { kind, wasm: path, imports: info.imports.map((i) => `${i.module}.${i.name}`) };
}

/**
 * Resolves init's operand from dir (the scenario's folder): a path to a
 * .wasm or glue file, else an npm package name resolved from dir. Returns
 * { kind, name, ... }: kind 'package' ({ dir, webGlues }), a glue kind
 * ({ glue, wasm, esm, flavour }) or a module kind ({ wasm, imports }).
 * Throws exit-2 SoakErrors naming what is missing.
 */
export function resolveTarget(operand, dir) {
  if (existsSync(operand) && statSync(operand).isFile()) {
    const path = resolve(operand);
    const name = basename(path).replace(/(_bg)?\.(wasm|[cm]?js)$/, '');
    if (path.endsWith('.wasm')) return { name, ...moduleTarget(path) };
    if (JS.has(extname(path))) return { name, ...glueTarget(path) };
    throw usageError(
      'WS_EUSAGE',
      `${operand} is neither a .wasm module nor a .js glue file.`,
      'Give init one of those, or an npm package name.',
    );
  }
  if (/[\\/]/.test(operand) && !operand.startsWith('@')) {
    throw usageError('WS_ENOENT', `Cannot find ${operand}.`, 'Check the path.');
  }
  const pkg = packageDir(operand, dir);
  if (!pkg) {
    throw usageError(
      'WS_ENOENT',
      `Cannot find the package ${operand} from ${resolve(dir)} (no node_modules/${operand} there or above).`,
      `Install it there (npm install ${operand}) or write the scenario into a project that has it (-o path/scenario.mjs).`,
    );
  }
  const name = operand.replace(/^@[^/]+\//, '');
  return { kind: 'package', name, packageName: operand, dir: pkg, webGlues: webGlues(pkg, operand) };
}
