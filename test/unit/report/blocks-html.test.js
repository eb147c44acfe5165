// What leaked blocks hold (--block-contents, docs/report.md): the fixture
// that strdup's a session token every call and forgets it. `run` at its
// defaults shows the tokens in summary.json, report.html and summary.md;
// soak() (the library) does too; `soak` on a suite does not unless asked;
// --no-block-contents leaves them out. The module's bytes are escaped in
// every report. The C mark and pick are tested in test/c/test_blocks.c.
// The checks here run no CLI and no worker; the runs through the CLI are in
// test/e2e/block-contents.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { leakedBlocks } from '../../../src/analysis/blocks.js';
import { blocksTable } from '../../../src/report/blocks-html.js';
import { renderMarkdown } from '../../../src/report/markdown.js';

test("a block's bytes are escaped in report.html and summary.md: markup and Markdown in them stay text", () => {
  const hostile = '<img src=x onerror=alert(1)>*_[a](b)|`';
  const raw = {
    markedAt: 100,
    memories: [
      { index: 0, blocks: [{ address: 4096, size: 48, sizeClass: 5, hex: Buffer.from(hostile).toString('hex') }] },
    ],
  };
  const { blocks } = leakedBlocks(raw, 0);
  assert.equal(blocks[0].text, hostile);
  const html = blocksTable({ blocks });
  assert.doesNotMatch(html, /<img/);
  assert.match(html, /&#60;img src=x onerror=alert\(1\)&#62;/);
  const md = renderMarkdown({
    verdict: 'leak',
    status: 'completed',
    findings: [{ kind: 'leak', sentence: 'A leak.', blocks }],
  });
  const line = md.split('\n').find((l) => l.includes('allocated after warm-up hold'));
  assert.ok(line, md);
  assert.doesNotMatch(line, /<img/);
  assert.match(line, /&#60;img src=x onerror=alert\(1\)&#62;\\\*\\_\\\[a\\\]\(b\)\\\|\\`/);
});
