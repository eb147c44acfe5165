// What the TypeScript declarations shipped beside a module say of its calls:
// init lists each call of the API with its parameters, and where a .d.ts
// declares them (wasm-bindgen writes one; many packages ship one), with
// their types. Read in init's own process, never by running the module.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// A declaration `[export] [declare] [function|static] name(params)[: type];`, one nesting level of parentheses in params.
const DECLARATION =
  /^[ \t]*(?:export\s+)?(?:declare\s+)?(?:function\s+|static\s+)?(?:async\s+)?([A-Za-z_$][\w$]*)\s*(?:<[^>\n]*>)?\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*(?::\s*([^;{\n]+))?;/gm;
// A property holding a function: `name: (params) => type;`.
const PROPERTY = /^[ \t]*([A-Za-z_$][\w$]*)\??\s*:\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*=>\s*([^;\n]+);/gm;
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'return', 'function', 'constructor']);

/** The .d.ts files under dir (not node_modules, not the raw exports' *.wasm.d.ts), at most depth folders down. */
function declarationFiles(dir, depth = 3) {
  const out = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && depth > 0 && entry.name !== 'node_modules')
      out.push(...declarationFiles(path, depth - 1));
    else if (entry.isFile() && entry.name.endsWith('.d.ts') && !entry.name.endsWith('.wasm.d.ts')) out.push(path);
  }
  return out;
}

/**
 * The declarations in text as a Map of name → '(params): type' (the first
 * declaration of each name; whitespace runs made one space).
 */
export function parseDeclarations(text) {
  const found = new Map();
  for (const [, name, params, type] of [...text.matchAll(DECLARATION), ...text.matchAll(PROPERTY)]) {
    if (KEYWORDS.has(name) || found.has(name)) continue;
    const flat = (s) => s.replace(/\s+/g, ' ').trim();
    found.set(name, `(${flat(params).replace(/,$/, '')})${type ? `: ${flat(type)}` : ''}`);
  }
  return found;
}

/**
 * The declared signatures of target's calls (resolveTarget's, with the
 * webGlue init chose, if any): a Map of name → '(params): type', empty when
 * nothing is declared. A package's .d.ts files, a glue's x.d.ts beside it.
 */
export function declaredSignatures(target) {
  const files = [];
  const glue = target.webGlue?.glue ?? target.glue;
  if (glue) files.push(glue.replace(/(_bg)?\.[cm]?js$/, '.d.ts'));
  if (target.kind === 'package') files.push(...declarationFiles(target.dir));
  const all = new Map();
  for (const file of files) {
    if (!existsSync(file)) continue;
    for (const [name, signature] of parseDeclarations(readFileSync(file, 'utf8'))) {
      if (!all.has(name)) all.set(name, signature);
    }
  }
  return all;
}
