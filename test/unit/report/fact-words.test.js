// The analysis leaves codes and numbers; the report words them
// (src/report/fact-words.js, through withSentences): the same words
// summary.json carried when the analysis wrote them itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LIVE_SOURCE } from '../../../src/analysis/analyze.js';
import { logCountOutcome, logOutcome } from '../../../src/analysis/config.js';
import { withFactWords } from '../../../src/report/fact-words.js';
import { withSentences } from '../../../src/report/sentences.js';

test('an unclosed log: the analysis gives a code, the report the message', () => {
  const { error } = logOutcome({ complete: false });
  assert.equal(error.message, undefined, 'no English in the analysis');
  const s = withFactWords({ error: { message: undefined, name: 'Error', code: error.code } });
  assert.equal(
    s.error.message,
    'the run ended without closing its log (it crashed or was killed); the samples up to the last flush were analysed',
  );
  assert.deepEqual(Object.keys(s.error), ['message', 'name', 'code'], 'the message where it always was');
});

test("a counting pass cut short: its counts and whether it closed its log, worded from the pass's facts", () => {
  const counted = { calls: 1200, header: { config: { iterations: 5000 } }, complete: false };
  const { error } = logCountOutcome(counted, 'failed');
  assert.equal(error.message, undefined);
  const pass = {
    calls: 1200,
    ofCalls: 5000,
    error: { message: undefined, phase: 'log', code: error.code, closed: false },
  };
  const s = withFactWords({ sources: { countingPass: pass } });
  assert.equal(
    s.sources.countingPass.error.message,
    'the counting pass ended after 1,200 of its 5,000 calls without closing its log (it was killed or crashed)',
  );
});

test('where live bytes came from, by code; the allocator by its own source', () => {
  const words = (liveBytes, sources = {}) => withFactWords({ sources: { ...sources, liveBytes } }).sources.liveBytes;
  assert.equal(words(LIVE_SOURCE.counting), 'counting pass');
  assert.equal(words(LIVE_SOURCE.stats), 'stats()');
  assert.equal(words(LIVE_SOURCE.censusNeverFrees), 'heap census (never frees: every allocation stays live)');
  assert.equal(words(LIVE_SOURCE.allocator, { allocator: { source: 'mallinfo (uordblks)' } }), 'mallinfo (uordblks)');
  assert.equal(words('counting pass'), 'counting pass', 'words already worded stay as they are');
});

test("a thinned log's note, a census recognised late, a hung call's sentence", () => {
  const s = withSentences({
    samples: { thinning: { capBytes: 1 << 20, fullIterations: 4096, stride: 64 } },
    memory: { memories: [{}, {}] },
    census: { recognised: true, kindText: 'dlmalloc', firstAt: 300, memory: { label: 'memory#2' } },
    sources: { census: { source: null, kind: 'dlmalloc' } },
    error: { message: 'hung call: iteration 7 did not return within 1 s (--call-timeout); the worker was stopped' },
    findings: [{ kind: 'hung-call', iteration: 7 }],
  });
  assert.match(
    s.samples.thinning.note,
    /^the log reached half of its cap \(--max-log-bytes\) after 4096 iterations: .* one call per 64 iterations/,
  );
  assert.equal(
    s.sources.census.source,
    'memory "memory#2": dlmalloc, first recognised at the census after iteration 300',
  );
  assert.equal(s.findings[0].sentence, s.error.message);
  assert.equal(s.findings[0].message, s.error.message, 'summary.json keeps the message');
});
