// The pages around the report as a person looks at them: a suite's
// index.html and compare.html (both on the one HTML shell, src/report/page.js)
// opened in headless Chromium at 1280 × 900 and 390 × 844, light and dark,
// and printed. The checks are layout facts measured in the page: no
// horizontal overflow, the TL;DR above the fold, a dark page in dark mode,
// marks that need no emoji font. Screenshots and PDFs stay in
// test-artifacts/pages/ (gitignored).
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CHROMIUM, launch, openPage } from '../../browser.js';
import { fixture, ROOT, runCli, tempDir } from '../../helpers.js';

const ARTIFACTS = join(ROOT, 'test-artifacts', 'pages');
const SIZES = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];

const MEASURE = `() => {
  const rgb = (c) => (c.match(/\\d+(\\.\\d+)?/g) ?? []).slice(0, 3).map(Number);
  const tldr = document.querySelector('#tldr');
  const table = tldr?.querySelector('table') ?? document.querySelector('table');
  return {
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
    tldrTop: tldr ? Math.round(tldr.getBoundingClientRect().top + scrollY) : null,
    tableTop: table ? Math.round(table.getBoundingClientRect().top + scrollY) : null,
    background: rgb(getComputedStyle(document.body).backgroundColor),
    color: rgb(getComputedStyle(document.body).color),
    marks: [...document.querySelectorAll('.mark')].map((m) => m.textContent),
    text: document.body.innerText,
    boxes: [...document.querySelectorAll('.scroll')].map((b) => Math.round(b.getBoundingClientRect().right)),
  };
}`;

const luminance = ([r, g, b]) => (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
// Pictographs that render as empty boxes without an emoji font.
const EMOJI = /[\u{1F300}-\u{1FAFF}\u{2600}-\u{27BF}\u{2B00}-\u{2BFF}]|\u{FE0F}/u;

const pages = {};
let browser = null;
const skip = !existsSync(CHROMIUM) && `${CHROMIUM} is not installed`;

before(async () => {
  if (skip) return;
  await mkdir(ARTIFACTS, { recursive: true });
  // A suite with a target that passes and one that fails its expectation.
  const suiteDir = tempDir('wasm-soak-pages-suite-');
  const suite = join(suiteDir, 'suite.json');
  writeFileSync(
    suite,
    JSON.stringify({
      targets: [
        { name: 'clean', module: fixture('soak', 'modules', 'clean.wasm'), call: 'step', expect: 'stable' },
        { name: 'leak-said-stable', module: fixture('soak', 'modules', 'leak.wasm'), call: 'step', expect: 'stable' },
      ],
    }),
  );
  const out = join(suiteDir, 'out');
  const s = await runCli(['soak', suite, '--expect', '-n', '3000', '--seed', '7', '--format', 'md', '-q', '-o', out]);
  assert.equal(s.code, 1, s.stderr);
  pages.index = join(out, 'index.html');
  // A comparison whose first arm's counting pass saw only the boundary.
  const cmp = tempDir('wasm-soak-pages-compare-');
  const c = await runCli([
    'compare',
    fixture('test', 'fixtures', 'boundary-alloc.wasm'),
    fixture('test', 'fixtures', 'forwarder-alloc.wasm'),
    '--call',
    'step',
    '--check-outputs',
    '--fail-if-slower',
    'none',
    '--blocks',
    '4',
    '--block-calls',
    '500',
    '--format',
    'md',
    '-q',
    '-o',
    cmp,
  ]);
  assert.equal(c.code, 0, c.stderr);
  pages.compare = join(cmp, 'compare.html');
  browser = await launch();
});

after(async () => {
  await browser?.close();
  for (const page of Object.values(pages)) rmSync(join(page, '..'), { recursive: true, force: true });
});

for (const name of ['index', 'compare']) {
  for (const { width, height } of SIZES) {
    for (const scheme of ['light', 'dark']) {
      test(`${name}.html at ${width} px, ${scheme}: no horizontal overflow, the TL;DR above the fold`, {
        skip,
      }, async () => {
        const page = await openPage(browser, `file://${pages[name]}`, { width, height, scheme });
        const m = await page.evaluate(MEASURE);
        await writeFile(join(ARTIFACTS, `${name}-${width}-${scheme}.png`), await page.screenshot());
        await page.close();
        assert.ok(m.scrollWidth <= m.clientWidth, `no horizontal overflow (${m.scrollWidth} > ${m.clientWidth})`);
        for (const right of m.boxes) assert.ok(right <= width, `a table box ends at ${right} px`);
        assert.ok(m.tldrTop !== null && m.tldrTop < height / 2, `the TL;DR starts in the top half (${m.tldrTop} px)`);
        assert.ok(m.tableTop !== null && m.tableTop < height, `its table starts above the fold (${m.tableTop} px)`);
        assert.doesNotMatch(m.text, EMOJI, 'no mark needs an emoji font');
        if (scheme === 'dark') {
          assert.ok(luminance(m.background) < 0.2, `dark background ${m.background}`);
          assert.ok(luminance(m.color) > 0.7, `light text ${m.color}`);
        } else assert.ok(luminance(m.background) > 0.8, `light background ${m.background}`);
        if (name === 'index') assert.deepEqual(m.marks, ['passed', 'failed']);
      });
    }
  }
  test(`${name}.html prints to PDF`, { skip }, async () => {
    const page = await openPage(browser, `file://${pages[name]}`, { width: 720, height: 1000, media: 'print' });
    const pdf = await page.pdf();
    await page.close();
    await writeFile(join(ARTIFACTS, `${name}.pdf`), pdf);
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  });
}
