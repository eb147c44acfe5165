// JUnit XML for CI: one testcase per soak target, named as the suite names
// it, timed by the wall clock. A case's outcome (suite-result.js) decides:
// passed (its verdict and findings in system-out), failed (a verdict the
// suite did not expect, or without expectations a finding that gates the
// exit code), error (the run failed or could not start).

import { hostname } from 'node:os';
import { join } from 'node:path';
import { EXIT } from '../errors.js';
import { writeResultFile } from '../result-file.js';
import { TOOL } from '../version.js';
import { baselineLines } from './baseline-words.js';
import { escapeMarkup as xml } from './escape.js';
import { reproduceCommand } from './next-steps.js';
import { runResult } from './suite-result.js';
import { findingEvidence } from './tables.js';
import { undecidedLines } from './words.js';

const seconds = (ms) => (Number.isFinite(ms) ? ms / 1000 : 0).toFixed(3);

const evidenceText = (f) =>
  findingEvidence(f)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

function systemOut(c) {
  const s = c.summary ?? {};
  const lines = [`verdict: ${s.verdict ?? 'none'} (${s.status ?? 'not run'})`];
  if (c.expect) lines.push(`expected: ${c.expect.join(' or ')}`);
  for (const f of s.findings ?? []) lines.push(`${f.kind}: ${f.sentence}`, evidenceText(f));
  for (const l of c.summary ? undecidedLines(s) : []) lines.push(`inconclusive: ${l}`);
  for (const n of s.notes ?? []) lines.push(`note: ${n.sentence}`);
  if (s.baseline) lines.push(...baselineLines(s.baseline));
  if (c.summary) lines.push(`reproduce: ${reproduceCommand(s)}`);
  return `<system-out>${xml(lines.join('\n'))}</system-out>`;
}

function testcase(c) {
  const body = [];
  if (c.outcome === 'skipped') body.push(`<skipped message="${xml(c.message)}"/>`);
  else if (c.outcome === 'error') {
    const stack = c.summary?.error?.stack ?? '';
    // A run a signal cut short is an error, typed so (suite-result.js).
    const type = c.exitCode === EXIT.INTERRUPTED && !stack ? 'interrupted' : 'run-failed';
    body.push(`<error message="${xml(c.message ?? 'the run failed')}" type="${type}">${xml(stack)}</error>`);
  } else if (c.outcome === 'failed' && c.expect) {
    const findings = (c.summary?.findings ?? []).map((f) => `${f.sentence}\n${evidenceText(f)}`).join('\n');
    body.push(`<failure message="${xml(c.message)}" type="unexpected-verdict">${xml(findings)}</failure>`);
  } else if (c.outcome === 'failed') {
    for (const f of c.summary?.findings ?? []) {
      body.push(`<failure message="${xml(f.sentence)}" type="${xml(f.kind)}">${xml(evidenceText(f))}</failure>`);
    }
    // A regression against the baseline (--baseline) is a failure too.
    for (const g of c.summary?.baseline?.regressions ?? []) {
      body.push(`<failure message="${xml(g.sentence)}" type="baseline-${xml(g.metric)}"></failure>`);
    }
  }
  body.push(systemOut(c));
  return `    <testcase classname="wasm-soak" name="${xml(c.name)}" time="${seconds(c.wallMs)}">\n      ${body.join('\n      ')}\n    </testcase>`;
}

/**
 * The JUnit document of one suite result (suite-result.js): { name,
 * startedAt, hosts, wallMs, cases }. Each case: { name, outcome, message,
 * expect, wallMs, summary }.
 */
export function renderJunit(result) {
  const { cases } = result;
  const count = (o) => cases.filter((c) => c.outcome === o).length;
  const time = seconds(result.wallMs ?? cases.reduce((t, c) => t + (c.wallMs ?? 0), 0));
  const head = `tests="${cases.length}" failures="${count('failed')}" errors="${count('error')}" skipped="${count('skipped')}" time="${time}"`;
  // JUnit's timestamp is ISO 8601 local time without a zone: UTC here.
  const timestamp = new Date(result.startedAt ?? Date.now()).toISOString().slice(0, 19);
  const host = (result.hosts ?? [hostname()]).join(',');
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="wasm-soak" ${head}>
  <testsuite name="${xml(result.name ?? 'wasm-soak')}" ${head} timestamp="${timestamp}" hostname="${xml(host)}">
    <properties><property name="wasm-soak.version" value="${xml(TOOL.version)}"/></properties>
${cases.map(testcase).join('\n')}
  </testsuite>
</testsuites>
`;
}

/** Writes renderJunit(result) at path. */
export async function writeJunit(path, result) {
  writeResultFile(path, renderJunit(result));
}

// The `junit` format's writer (src/options/formats.js): dir/junit.xml, the
// run as a one-case suite, timed from context.startedAt (performance.now()
// when the run started) until now, else by the run's own duration.
export async function write(dir, summary, { startedAt }) {
  await writeJunit(join(dir, 'junit.xml'), runResult(summary, startedAt));
}
