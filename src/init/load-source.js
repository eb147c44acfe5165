// The source of a written scenario's load(): the module loaded the way its
// glue wants (a package's entry and its init, wasm-bindgen's initSync or
// require, Emscripten's factory with wasmBinary, a raw module with its
// AssemblyScript or WASI imports). load() returns { api, raw }: what the
// ops call, and the module's own exports where the glue hands them out.

import { quote } from './op.js';

/** The AssemblyScript host imports init provides, by name (env.abort, env.trace, env.seed). */
const AS_IMPORTS = {
  abort:
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the written scenario's template string
    'abort(message, file, line, column) {\n      throw new Error(`the module aborted at line ${line}, column ${column}`);\n    },',
  trace: 'trace() {},',
  seed: 'seed: () => 0x5eed,',
};

/** The AssemblyScript imports a module asks for that init cannot provide. */
export const missingAsImports = (imports) =>
  imports.filter((name) => !(name.startsWith('env.') && name.slice(4) in AS_IMPORTS));

const q = quote;

/** A package's load steps (decided by explore.js) as statements; returns { lines, api, raw }. */
function packageSteps(steps) {
  const lines = [];
  let api = 'pkg';
  let raw = 'null';
  for (const step of steps) {
    if (step.call) {
      const call = `await pkg.${step.call}()`;
      if (step.result === 'api') {
        lines.push(`const api = ${call};`);
        api = 'api';
      } else if (step.result === 'raw') {
        lines.push(`const raw = ${call};`);
        raw = 'raw';
      } else lines.push(`${call};`);
    } else if (step.ready) {
      lines.push(`await Promise.all([${step.ready.map((path) => `${api}.${path}.ready`).join(', ')}]);`);
    }
  }
  return { lines, api, raw };
}

/** The line that names the module's file for the scenario: WASM, a URL beside it. */
const wasmUrl = (rel, path) => `const WASM = new URL(${q(rel(path))}, import.meta.url);`;

// What a scenario's load() says for each kind of target init recognises:
// the imports, the constants and the body that load the module the way its
// glue wants. Each loader returns { imports, consts, body } (arrays of
// lines) for target (resolveTarget's), steps (a package's, from explore.js;
// [] for a draft) and rel(path), path relative to the scenario (a './…' URL
// string).
const LOADERS = {
  package: (target, steps, rel) => {
    if (target.webGlue) {
      const { glue, wasm, specifiers } = target.webGlue;
      return {
        imports: [
          "import { readFileSync } from 'node:fs';",
          ...(specifiers ? ["import { createRequire } from 'node:module';"] : []),
          `import * as glue from ${q(specifiers?.glue ?? rel(glue))};`,
        ],
        consts: specifiers
          ? [`const WASM = createRequire(import.meta.url).resolve(${q(specifiers.wasm)});`]
          : [wasmUrl(rel, wasm)],
        body: ['const raw = glue.initSync(readFileSync(WASM));', 'return { api: glue, raw };'],
      };
    }
    const { lines, api, raw } = packageSteps(steps);
    return {
      imports: [`import * as pkg from ${q(target.packageName)};`],
      consts: [],
      body: [...lines, `return { api: ${api}, raw: ${raw} };`],
    };
  },
  'wasm-bindgen-nodejs': (target, _steps, rel) => {
    return target.esm
      ? {
          imports: [`import * as api from ${q(rel(target.glue))};`],
          consts: [],
          body: ['return { api, raw: api.__wasm ?? null };'],
        }
      : {
          imports: ["import { createRequire } from 'node:module';"],
          consts: ['const require = createRequire(import.meta.url);'],
          body: [`const api = require(${q(rel(target.glue))});`, 'return { api, raw: api.__wasm ?? null };'],
        };
  },
  'wasm-bindgen-web': (target, _steps, rel) => {
    return {
      imports: ["import { readFileSync } from 'node:fs';", `import * as api from ${q(rel(target.glue))};`],
      consts: [wasmUrl(rel, target.wasm)],
      body: [
        `const raw = api.initSync(${target.newInit ? '{ module: readFileSync(WASM) }' : 'readFileSync(WASM)'});`,
        'return { api, raw };',
      ],
    };
  },
  'wasm-bindgen-bundler': (target, _steps, rel) => {
    // The bundler target imports its .wasm as a module; Node needs it instantiated by hand.
    return {
      imports: ["import { readFileSync } from 'node:fs';", `import * as api from ${q(rel(target.glue))};`],
      consts: [wasmUrl(rel, target.wasm)],
      body: [
        'const module = new WebAssembly.Module(readFileSync(WASM));',
        'const imports = Object.fromEntries(WebAssembly.Module.imports(module).map((i) => [i.module, api]));',
        'const raw = new WebAssembly.Instance(module, imports).exports;',
        'api.__wbg_set_wasm(raw);',
        'raw.__wbindgen_start?.();',
        'return { api, raw };',
      ],
    };
  },
  emscripten: (target, _steps, rel) => {
    const factory = target.esm
      ? { imports: [`import factory from ${q(rel(target.glue))};`], consts: [] }
      : {
          imports: ["import { createRequire } from 'node:module';"],
          consts: [
            'const require = createRequire(import.meta.url);',
            `const factory = require(${q(rel(target.glue))});`,
          ],
        };
    if (!target.wasm) {
      return { ...factory, body: ['const api = await factory();', 'return { api, raw: api };'] };
    }
    return {
      imports: ["import { readFileSync } from 'node:fs';", ...factory.imports],
      consts: [...factory.consts, wasmUrl(rel, target.wasm)],
      // Emscripten's glue would fetch() the file under Node 18+: hand it the bytes.
      body: ['const api = await factory({ wasmBinary: readFileSync(WASM) });', 'return { api, raw: api };'],
    };
  },
  'emscripten-global': (target, _steps, rel) => {
    // No factory: the glue reads a global Module set before it runs, as a
    // page sets one. It runs here as a function whose Module parameter is
    // that object, with the module's bytes (the glue would fetch() a path
    // under Node 18+) and a callback for when the runtime is ready.
    return {
      imports: [
        "import { readFileSync } from 'node:fs';",
        "import { createRequire } from 'node:module';",
        "import { dirname } from 'node:path';",
        "import { fileURLToPath } from 'node:url';",
        "import { compileFunction } from 'node:vm';",
      ],
      consts: [
        `const GLUE = fileURLToPath(new URL(${q(rel(target.glue))}, import.meta.url));`,
        wasmUrl(rel, target.wasm),
      ],
      body: [
        "const params = ['Module', 'require', 'module', '__filename', '__dirname'];",
        "const glue = compileFunction(readFileSync(GLUE, 'utf8'), params, { filename: GLUE });",
        'const api = await new Promise((resolve, reject) => {',
        '  const Module = { wasmBinary: readFileSync(WASM), onAbort: (what) => reject(new Error(String(what))) };',
        '  Module.onRuntimeInitialized = () => resolve(Module);',
        '  glue(Module, createRequire(GLUE), { exports: {} }, GLUE, dirname(GLUE));',
        '});',
        'return { api, raw: api };',
      ],
    };
  },
  'wasi-reactor': (target, _steps, rel) => {
    return {
      imports: ["import { readFileSync } from 'node:fs';", "import { WASI } from 'node:wasi';"],
      consts: [wasmUrl(rel, target.wasm)],
      body: [
        "const wasi = new WASI({ version: 'preview1' });",
        'const { instance } = await WebAssembly.instantiate(readFileSync(WASM), { wasi_snapshot_preview1: wasi.wasiImport });',
        'if (instance.exports._initialize) wasi.initialize(instance);',
        'return { api: instance.exports, raw: instance.exports };',
      ],
    };
  },
  assemblyscript: (target, _steps, rel) => {
    const env = target.imports
      .filter((name) => name.startsWith('env.'))
      .map((name) => `    ${AS_IMPORTS[name.slice(4)]}`);
    return {
      imports: ["import { readFileSync } from 'node:fs';"],
      consts: [wasmUrl(rel, target.wasm)],
      body: [
        'const env = {',
        ...env,
        '};',
        'const { instance } = await WebAssembly.instantiate(readFileSync(WASM), { env });',
        'return { api: instance.exports, raw: instance.exports };',
      ],
    };
  },
  plain: (target, _steps, rel) => {
    return {
      imports: ["import { readFileSync } from 'node:fs';"],
      consts: [wasmUrl(rel, target.wasm)],
      body: [
        'const { instance } = await WebAssembly.instantiate(readFileSync(WASM));',
        'return { api: instance.exports, raw: instance.exports };',
      ],
    };
  },
};

/**
 * Returns { imports, consts, body } (arrays of lines) for target
 * (resolveTarget's) with steps (a package's, from explore.js; [] for a
 * draft), rel(path) being path relative to the scenario (a './…' URL
 * string): its kind's loader, else a plain module's (no imports).
 */
export function loadSource(target, steps, rel) {
  return (LOADERS[target.kind] ?? LOADERS.plain)(target, steps, rel);
}
