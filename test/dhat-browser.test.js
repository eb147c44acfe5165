// `wasm-soak export DIR --dhat` read by its real consumer: Valgrind's DHAT
// viewer (Debian's valgrind ships dh_view.html and dh_view.js in
// /usr/libexec/valgrind/), opened in headless Chromium, given dhat.json
// through its file input (DevTools' DOM.setFileInputFiles, which fires the
// input's change as a person's choice does). The viewer checks the file's
// fields as it builds its tree and prints what failed; here it must build
// the tree and show the leaking site's frames and bytes.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CHROMIUM, launch, openPage } from './browser.js';
import { fixture, readSummary, runCli, tempDir } from './helpers.js';

const VIEWER = '/usr/libexec/valgrind/dh_view.html';
const skip =
  (!existsSync(CHROMIUM) && `${CHROMIUM} is not installed`) ||
  (!existsSync(VIEWER) && `${VIEWER} is missing: apt-get install valgrind`);

let browser = null;
before(async () => {
  if (!skip) browser = await launch();
});
after(async () => {
  await browser?.close();
});

test("export --dhat: Valgrind's DHAT viewer loads dhat.json and shows the leaking site, its frames and bytes", {
  skip,
}, async () => {
  const out = tempDir();
  const run = await runCli([
    'run',
    fixture('soak', 'modules', 'sites.wasm'),
    '--call',
    'request:1,store:1',
    '-n',
    '3000',
    '-o',
    out,
    '-q',
    '--sites',
    '--fail-on',
    'none',
    '--format',
    'md',
  ]);
  assert.equal(run.code, 0, run.stderr);
  const r = await runCli(['export', out, '--dhat']);
  assert.equal(r.code, 0, r.stderr);
  const file = join(out, 'dhat.json');
  assert.equal(r.stdout.trim(), file);

  // The file: the leaking site's exact counts, its frames innermost first and its op outermost.
  const summary = readSummary(out);
  const top = summary.sites.growing[0];
  const dhat = JSON.parse(readFileSync(file, 'utf8'));
  const pp = dhat.pps.find((p) => dhat.ftbl[p.fs[0]] === 'copy_string');
  assert.deepEqual(
    pp.fs.map((i) => dhat.ftbl[i]),
    ['copy_string', 'intern_header', 'parse_headers', 'handle_request', 'op request'],
  );
  assert.equal(pp.eb, top.liveBytes.end);
  assert.equal(pp.ebk, top.liveBlocks.end);
  assert.equal(
    dhat.pps.reduce((t, p) => t + p.tb, 0),
    summary.allocations.bytes.total,
  );
  assert.equal(dhat.te, summary.allocations.calls);

  // The viewer.
  const page = await openPage(browser, `file://${VIEWER}`, { width: 1280, height: 900 });
  try {
    const { root } = await page.send('DOM.getDocument', {});
    const { nodeId } = await page.send('DOM.querySelector', { nodeId: root.nodeId, selector: 'input[type=file]' });
    await page.send('DOM.setFileInputFiles', { nodeId, files: [file] });
    let text = '';
    for (let i = 0; i < 200 && !/PP significance threshold|error/i.test(text); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      text = await page.evaluate('() => document.body.innerText');
    }
    assert.doesNotMatch(text, /error|missing a field|version number/i, text);
    assert.deepEqual(page.console, []);
    assert.match(text, /Invocation \{\n\s+Mode:\s+heap\n\s+Command: wasm-soak run .* \(wasm-soak's allocation sites/);
    assert.match(text, new RegExp(`t-end:\\s+${dhat.te.toLocaleString('en-US')} calls`));
    // The leaking site: its allocator's caller, the op outermost, its live bytes at the end.
    assert.match(text, /#\d+: copy_string\n/);
    assert.match(text, /#\d+: op request\n/);
    const eb = `${pp.eb.toLocaleString('en-US')} bytes`;
    assert.match(text, new RegExp(`At t-end:\\s+${eb} .* in ${pp.ebk.toLocaleString('en-US')} blocks`));
    assert.match(text, new RegExp(`Total:\\s+${pp.tb.toLocaleString('en-US')} bytes`));
  } finally {
    await page.close();
  }
});
