// `wasm-soak export DIR --dhat` read by its real consumer: Valgrind's DHAT
// viewer (Debian's valgrind ships dh_view.html and dh_view.js in
// /usr/libexec/valgrind/), opened in headless Chromium, given dhat.json
// through its file input (DevTools' DOM.setFileInputFiles, which fires the
// input's change as a person's choice does). The viewer checks the file's
// fields as it builds its tree and prints what failed; here it must build
// the tree and show the leaking site's frames and bytes. The file's own
// numbers are checked without the viewer too.
// The runs through the CLI; the checks without a run are in
// test/unit/report/dhat.test.js.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CHROMIUM, launch, openPage } from '../../browser.js';
import { fixture, readSummary, runCli, tempDir } from '../../helpers.js';

const VIEWER = '/usr/libexec/valgrind/dh_view.html';
const skip =
  (!existsSync(CHROMIUM) && `${CHROMIUM} is not installed`) ||
  (!existsSync(VIEWER) && `${VIEWER} is missing: apt-get install valgrind`);

const LEAK_FRAMES = ['copy_string', 'intern_header', 'parse_headers', 'handle_request', 'op request'];
let browser = null;
let exported = null; // { file, dhat, summary } of a --sites run on the sites fixture

before(async () => {
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
  exported = { file, dhat: JSON.parse(readFileSync(file, 'utf8')), summary: readSummary(out) };
  if (!skip) browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The program point of the leaking site. */
const leakPP = ({ pps, ftbl }) => pps.find((p) => ftbl[p.fs[0]] === 'copy_string');

test("export --dhat: the sites' exact counts, frames innermost first, the op outermost, time in calls", () => {
  const { dhat, summary } = exported;
  const top = summary.sites.growing[0];
  const pp = leakPP(dhat);
  assert.deepEqual(
    pp.fs.map((i) => dhat.ftbl[i]),
    LEAK_FRAMES,
  );
  assert.equal(dhat.ftbl[0], '[root]');
  assert.equal(pp.eb, top.liveBytes.end);
  assert.equal(pp.ebk, top.liveBlocks.end);
  // The leak never frees: at the end every block it allocated is live, as at its peak.
  assert.equal(pp.ebk, pp.tbk);
  assert.equal(pp.mbk, pp.ebk);
  const sum = (f) => dhat.pps.reduce((t, p) => t + p[f], 0);
  assert.equal(sum('tb'), summary.allocations.bytes.total);
  assert.equal(sum('tbk'), summary.allocations.allocs.total);
  assert.equal(sum('eb'), summary.allocations.live.end);
  assert.equal(dhat.te, summary.allocations.calls);
  assert.match(dhat.cmd, /^wasm-soak run .* --sites .*every allocation recorded, no sampling/);
});

test("export --dhat: Valgrind's DHAT viewer loads dhat.json and shows the leaking site, its frames and bytes", {
  skip,
}, async () => {
  const { file, dhat } = exported;
  const pp = leakPP(dhat);
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
    const n = (x) => x.toLocaleString('en-US');
    assert.match(text, new RegExp(`t-end:\\s+${n(dhat.te)} calls`));
    // The leaking site: its frames from the allocator's caller to the op, its bytes.
    assert.match(text, new RegExp(LEAK_FRAMES.map((f) => `#\\d+: ${f}\\n`).join('[│ ]*')));
    assert.match(text, new RegExp(`Total:\\s+${n(pp.tb)} bytes .* in ${n(pp.tbk)} blocks`));
    assert.match(text, new RegExp(`At t-end:\\s+${n(pp.eb)} bytes .* in ${n(pp.ebk)} blocks`));
  } finally {
    await page.close();
  }
});
