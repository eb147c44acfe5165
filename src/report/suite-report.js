// The reports of a whole suite, written at the root of its result folders:
// junit.xml (junit.js), index.html (every target with its verdict, what was
// expected, its wall time and a link to its report) and summary.md (the same
// table for a GitHub step summary: no links to files it cannot show), plus
// suite-result.json for `wasm-soak merge`.
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { writeResultFile } from '../result-file.js';
import { baselineBrief } from './baseline-words.js';
import { escapeMarkup as esc, escapeMarkdown, markdownCode } from './escape.js';
import { formatMs } from './format.js';
import { writeJunit } from './junit.js';
import { rerunCommand } from './next-steps.js';
import { banner, htmlPage, mark } from './page.js';
import { writeSuiteResult } from './suite-result.js';

// Text in summary.md that is not its own Markdown: target names, verdicts and
// errors (a module's message) escaped for Markdown (escape.js).
const md = escapeMarkdown;

// Marks in summary.md, which GitHub renders with its own emoji; index.html
// says the outcome as a word on a coloured badge instead (page.js).
const MD_MARK = { passed: '✅ passed', failed: '❌ failed', error: '⚠️ error', skipped: '⏹️ not run' };

function tally(cases) {
  const n = (o) => cases.filter((c) => c.outcome === o).length;
  const notRun = n('skipped') ? `, ${n('skipped')} not run` : '';
  return `${cases.length} targets: ${n('passed')} passed, ${n('failed')} failed, ${n('error')} errors${notRun}`;
}

const expected = (c) => (c.expect ? c.expect.join(' or ') : '–');
const verdictOf = (c) => c.summary?.verdict ?? (c.summary ? 'none' : 'not run');

/** Which part of the suite the result covers: "shard 1 of 2", what merge says it combined, or null (the whole suite). */
const partOf = (result) => (result.shard ? `shard ${result.shard.k}/${result.shard.n}` : (result.shards ?? null));

/** A finding's headline: the first sentence of its words. */
const headline = (sentence) => /^.*?\.(?=\s|$)/.exec(sentence)?.[0] ?? sentence;

/**
 * Why a case did not pass: its message and, when it says another thing, its
 * first finding's headline; for a case that passed against a baseline, the
 * changes against it too (a passing target's baseline changes are news).
 */
function whyOf(c) {
  const finding = c.outcome === 'failed' ? c.summary?.findings?.[0]?.sentence : null;
  const why = finding && !c.message.includes(headline(finding)) ? `${c.message}: ${headline(finding)}` : c.message;
  return c.outcome === 'passed' && c.summary?.baseline ? `${why}; ${baselineBrief(c.summary.baseline)}` : why;
}

/** The command that reproduces a case, its paths relative to the suite file's folder, or null. */
function reproduceOf(result, c) {
  if (!Array.isArray(c.summary?.command) || !result.suite) return null;
  const from = dirname(result.suite);
  const command = c.summary.command.map((a) => (isAbsolute(a) ? relative(from, a) || '.' : a));
  return rerunCommand({ ...c.summary, command });
}

/** The case's report, relative to root: report.html, else summary.md or summary.json, else its folder. */
function linkOf(root, c) {
  for (const f of ['report.html', 'summary.md', 'summary.json']) {
    if (existsSync(join(c.dir, f))) return relative(root, join(c.dir, f));
  }
  return relative(root, c.dir) || '.';
}

/** index.html of a suite result (cases with absolute dir) written at root. */
function renderSuiteHtml(root, result) {
  const n = (o) => result.cases.filter((c) => c.outcome === o).length;
  const tone = n('error') || n('skipped') ? 'unsure' : n('failed') ? 'bad' : 'ok';
  const title =
    n('error') + n('failed') + n('skipped')
      ? `${n('failed') + n('error') + n('skipped')} of ${result.cases.length} targets did not pass`
      : `All ${result.cases.length} targets passed`;
  const part = partOf(result);
  const rows = result.cases.map(
    (c) =>
      `<tr class="${c.outcome}"><td><a href="${esc(encodeURI(linkOf(root, c)))}">${esc(c.name)}</a></td>` +
      `<td>${mark(c.outcome, c.outcome === 'skipped' ? 'not run' : c.outcome)}</td><td data-label="verdict">${esc(verdictOf(c))}</td>` +
      `<td data-label="expected">${esc(expected(c))}</td><td data-label="wall time">${esc(formatMs(c.wallMs))}</td>` +
      `<td class="text">${esc(whyOf(c))}</td></tr>`,
  );
  const failing = result.cases.filter((c) => c.outcome !== 'passed' && reproduceOf(result, c));
  const reproduce = failing.length
    ? `<section id="reproduce"><h2>Reproduce</h2><p class="muted">From the suite file's folder (${esc(dirname(result.suite))}):</p>${failing
        .map((c) => `<h3>${esc(c.name)}</h3><pre><code>${esc(reproduceOf(result, c))}</code></pre>`)
        .join('')}</section>`
    : '';
  return htmlPage({
    title: `${result.name}: wasm-soak suite`,
    head: banner({
      tone,
      id: 'tldr',
      title: `${result.name}: ${title}`,
      text: `${tally(result.cases)}${part ? ` (${part})` : ''}.`,
      sub: `${formatMs(result.wallMs)} wall time; started ${result.startedAt} on ${result.hosts.join(', ')}`,
    }),
    body: `<section id="targets"><h2>Targets</h2><div class="scroll"><table class="grid cards">
<thead><tr><th>target</th><th>outcome</th><th>verdict</th><th>expected</th><th>wall time</th><th class="text">why</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table></div></section>${reproduce}`,
    footer: `Written by wasm-soak from suite-result.json${part ? ` (${part})` : ''}.`,
  });
}

/** summary.md of a suite result: a table that renders in a GitHub step summary. */
function renderSuiteMarkdown(result) {
  const part = partOf(result);
  const rows = result.cases.map(
    (c) =>
      `| ${md(c.name)} | ${MD_MARK[c.outcome]} | ${md(verdictOf(c))} | ${md(expected(c))} | ${md(formatMs(c.wallMs))} | ${md(whyOf(c))} |`,
  );
  const failing = result.cases.filter((c) => c.outcome !== 'passed' && reproduceOf(result, c));
  return [
    `## wasm-soak: ${md(result.name)}${part ? ` (${part})` : ''}`,
    '',
    `${tally(result.cases)} (${formatMs(result.wallMs)} wall time${part ? `, ${part}` : ''}).`,
    '',
    '| target | outcome | verdict | expected | wall time | why |',
    '|---|---|---|---|--:|---|',
    ...rows,
    '',
    ...(failing.length
      ? [
          `To reproduce, from the suite file's folder (${markdownCode(dirname(result.suite))}):`,
          '',
          ...failing.map((c) => `- ${md(c.name)}: ${markdownCode(reproduceOf(result, c))}`),
          '',
        ]
      : []),
  ].join('\n');
}

/** Writes junit.xml, index.html, summary.md and suite-result.json of result at root (a folder its caller prepared). */
export async function writeSuiteReports(root, result) {
  await writeJunit(join(root, 'junit.xml'), result);
  writeResultFile(join(root, 'index.html'), renderSuiteHtml(root, result));
  writeResultFile(join(root, 'summary.md'), renderSuiteMarkdown(result));
  await writeSuiteResult(root, result);
}
