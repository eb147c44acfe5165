#!/usr/bin/env node
// Prints the addon's C sources, every .c file below addon/ (the Node-API
// layer and the core), sorted, one a line, relative to the repository's
// root: binding.gyp's sources (`<!@(node scripts/addon-sources.js)`) and the
// sanitized addon's (test/c/Makefile), so that a new source file, a census
// family's walker say, is listed nowhere by hand.
import { readdirSync } from 'node:fs';

const root = new URL('../', import.meta.url);

/** The .c files below dir (relative to the root, `/`-separated), sorted. */
function sources(dir) {
  const found = [];
  for (const entry of readdirSync(new URL(`${dir}/`, root), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) found.push(...sources(path));
    else if (entry.name.endsWith('.c')) found.push(path);
  }
  return found.sort();
}

process.stdout.write(`${sources('addon').join('\n')}\n`);
