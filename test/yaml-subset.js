// A reader of the YAML subset `wasm-soak init --ci`'s emitter writes
// (src/init/ci-workflow.js): what the workflow tests read back. Shared by
// test/unit/init/ci-workflow.test.js and test/e2e/long/init-ci.test.js.
import assert from 'node:assert/strict';

// biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template.
export const SHARD = '${{ matrix.shard }}';

/** A scalar of the emitter's subset: quoted, a number, a boolean, empty (null) or plain. */
function scalar(text) {
  const t = text.trim();
  if (t === '') return null;
  if (t.startsWith("'")) {
    assert.ok(t.endsWith("'"), `unterminated quote: ${t}`);
    return t.slice(1, -1).replaceAll("''", "'");
  }
  if (t.startsWith('[')) {
    assert.ok(t.endsWith(']'), `unterminated list: ${t}`);
    return t.slice(1, -1).trim() === '' ? [] : t.slice(1, -1).split(',').map(scalar);
  }
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (t === 'true' || t === 'false') return t === 'true';
  assert.doesNotMatch(t, /^[&*!|>%@`"{]|: | #/, `not a plain scalar: ${t}`);
  return t;
}

/**
 * Parses block YAML of maps, lists, flow lists of scalars and literal
 * blocks (`|`), the shapes toYaml writes; throws on anything else (tabs,
 * an indentation it cannot place). Comments and blank lines are skipped.
 */
export function parseYaml(text) {
  const lines = text.split('\n');
  let i = 0;
  const indentOf = (l) => l.length - l.trimStart().length;
  const skip = () => {
    while (i < lines.length && (lines[i].trim() === '' || lines[i].trimStart().startsWith('#'))) i++;
  };
  function block(indent) {
    skip();
    assert.ok(!lines[i].includes('\t'), `a tab at line ${i + 1}`);
    return lines[i].slice(indent).startsWith('- ') ? list(indent) : map(indent);
  }
  function literal(indent) {
    const out = [];
    while (i < lines.length && (lines[i] === '' || indentOf(lines[i]) >= indent)) out.push(lines[i++].slice(indent));
    while (out.length && out.at(-1) === '') out.pop();
    return `${out.join('\n')}\n`;
  }
  function value(rest, indent) {
    if (rest.trim() === '|') return literal(indent + 2);
    if (rest.trim() !== '') return scalar(rest);
    skip();
    return i < lines.length && indentOf(lines[i]) > indent ? block(indentOf(lines[i])) : null;
  }
  function map(indent, first = null) {
    const out = {};
    let line = first;
    for (;;) {
      if (line === null) {
        skip();
        if (i >= lines.length || indentOf(lines[i]) !== indent || lines[i].slice(indent).startsWith('- ')) break;
        line = lines[i++].slice(indent);
      }
      const m = /^('(?:[^']|'')*'|[^':][^:]*):(?: (.*)|)$/.exec(line);
      assert.ok(m, `not a key: ${line}`);
      const key = scalar(m[1]);
      assert.ok(!(key in out), `key ${key} twice`);
      out[key] = value(m[2] ?? '', indent);
      line = null;
    }
    return out;
  }
  function list(indent) {
    const out = [];
    for (;;) {
      skip();
      if (i >= lines.length || indentOf(lines[i]) !== indent || !lines[i].slice(indent).startsWith('- ')) break;
      const item = lines[i++].slice(indent + 2);
      out.push(/^('(?:[^']|'')*'|[\w-]+):( |$)/.test(item) ? map(indent + 2, item) : scalar(item));
    }
    return out;
  }
  const doc = block(0);
  skip();
  assert.equal(i, lines.length, `unparsed from line ${i + 1}: ${lines[i]}`);
  return doc;
}
