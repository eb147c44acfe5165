// The reports of a whole suite, written at the root of its result folders:
// junit.xml (junit.js), index.html (every target with its verdict, what was
// expected, its wall time and a link to its report) and summary.md (the same
// table for a GitHub step summary: no links to files it cannot show), plus
// suite-result.json for `wasm-soak merge`.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { formatMs } from './format.js';
import { writeJunit } from './junit.js';
import { writeSuiteResult } from './suite-result.js';

const html = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const md = (s) =>
  String(s ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ');

const MARK = { passed: '✅ passed', failed: '❌ failed', error: '⚠️ error' };

function tally(cases) {
  const n = (o) => cases.filter((c) => c.outcome === o).length;
  return `${cases.length} targets: ${n('passed')} passed, ${n('failed')} failed, ${n('error')} errors`;
}

const expected = (c) => (c.expect ? c.expect.join(' or ') : '–');
const verdictOf = (c) => c.summary?.verdict ?? (c.summary ? 'none' : 'not run');

/** The case's report, relative to root: report.html, else summary.md or summary.json, else its folder. */
function linkOf(root, c) {
  for (const f of ['report.html', 'summary.md', 'summary.json']) {
    if (existsSync(join(c.dir, f))) return relative(root, join(c.dir, f));
  }
  return relative(root, c.dir) || '.';
}

/** index.html of a suite result (cases with absolute dir) written at root. */
function renderSuiteHtml(root, result) {
  const rows = result.cases.map(
    (c) =>
      `<tr class="${c.outcome}"><td><a href="${html(encodeURI(linkOf(root, c)))}">${html(c.name)}</a></td>` +
      `<td>${html(MARK[c.outcome])}</td><td>${html(verdictOf(c))}</td><td>${html(expected(c))}</td>` +
      `<td class="n">${html(formatMs(c.wallMs))}</td><td>${html(c.message)}</td></tr>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${html(result.name)}: wasm-soak suite</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35em .6em;border-bottom:1px solid #ddd;vertical-align:top}
td.n{text-align:right;white-space:nowrap}tr.failed td:nth-child(2){color:#b00020}tr.error td:nth-child(2){color:#a15c00}
tr.passed td:nth-child(2){color:#1b7f3b}
</style></head><body>
<h1>${html(result.name)}</h1>
<p>${html(tally(result.cases))}; ${html(formatMs(result.wallMs))} wall time${result.shards ? `, ${html(result.shards)}` : ''}; started ${html(result.startedAt)} on ${html(result.hosts.join(', '))}.</p>
<table><thead><tr><th>target</th><th>outcome</th><th>verdict</th><th>expected</th><th>wall time</th><th>why</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>
</body></html>
`;
}

/** summary.md of a suite result: a table that renders in a GitHub step summary. */
function renderSuiteMarkdown(result) {
  const rows = result.cases.map(
    (c) =>
      `| ${md(c.name)} | ${MARK[c.outcome]} | ${md(verdictOf(c))} | ${md(expected(c))} | ${md(formatMs(c.wallMs))} | ${md(c.message)} |`,
  );
  return [
    `## wasm-soak: ${md(result.name)}`,
    '',
    `${tally(result.cases)} (${formatMs(result.wallMs)} wall time${result.shards ? `, ${result.shards}` : ''}).`,
    '',
    '| target | outcome | verdict | expected | wall time | why |',
    '|---|---|---|---|--:|---|',
    ...rows,
    '',
  ].join('\n');
}

/** Writes junit.xml, index.html, summary.md and suite-result.json of result at root (a folder its caller prepared). */
export async function writeSuiteReports(root, result) {
  await writeJunit(join(root, 'junit.xml'), result);
  await writeFile(join(root, 'index.html'), renderSuiteHtml(root, result));
  await writeFile(join(root, 'summary.md'), renderSuiteMarkdown(result));
  await writeSuiteResult(root, result);
}
