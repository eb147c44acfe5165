// JUnit XML for CI: one testcase per soak target. A finding is a failure
// whose message is its sentence; a failed run is an error.
import { writeFile } from 'node:fs/promises';
import { TOOL } from '../version.js';
import { findingEvidence, reproduceCommand } from './words.js';

// Escapes text for XML attributes and content, dropping characters XML 1.0
// cannot carry.
const xml = (s) =>
  String(s ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters; they are removed.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function testcase(s) {
  const time = Number.isFinite(s.durationMs) ? (s.durationMs / 1000).toFixed(3) : '0';
  const body = [];
  if (s.status === 'failed') {
    const e = s.error ?? {};
    body.push(`<error message="${xml(e.message ?? 'the run failed')}" type="run-failed">${xml(e.stack ?? '')}</error>`);
  }
  for (const f of s.findings ?? []) {
    const evidence = findingEvidence(f)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n');
    body.push(`<failure message="${xml(f.sentence)}" type="${xml(f.kind)}">${xml(evidence)}</failure>`);
  }
  body.push(
    `<system-out>${xml(`verdict: ${s.verdict ?? 'none'} (${s.status})\nreproduce: ${reproduceCommand(s)}`)}</system-out>`,
  );
  return `    <testcase classname="wasm-soak" name="${xml(s.name ?? 'wasm-soak')}" time="${time}">\n      ${body.join('\n      ')}\n    </testcase>`;
}

// Returns the JUnit document for several targets (one testsuite).
export function renderJunit(summaries) {
  const failures = summaries.filter((s) => s.status !== 'failed' && s.findings?.length).length;
  const errors = summaries.filter((s) => s.status === 'failed').length;
  const time = summaries.reduce((t, s) => t + (Number.isFinite(s.durationMs) ? s.durationMs : 0), 0) / 1000;
  const head = `tests="${summaries.length}" failures="${failures}" errors="${errors}" time="${time.toFixed(3)}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="wasm-soak" ${head}>
  <testsuite name="wasm-soak" ${head}>
    <properties><property name="wasm-soak.version" value="${xml(TOOL.version)}"/></properties>
${summaries.map(testcase).join('\n')}
  </testsuite>
</testsuites>
`;
}

// Writes one JUnit file for all summaries (one testcase each).
export async function writeJunit(path, summaries) {
  await writeFile(path, renderJunit(summaries));
}
