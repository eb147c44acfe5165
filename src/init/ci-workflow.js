// `wasm-soak init --ci SUITE.json`: the GitHub Actions workflow a nightly
// soak needs (docs/suites.md, "A nightly job"). The workflow is built as
// data (ciWorkflow) and written as YAML by a small emitter of that data's
// shapes (toYaml): maps, lists, strings, numbers and booleans.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { usageError } from '../errors.js';

/** Where the workflow goes unless -o says otherwise. */
export const CI_WORKFLOW = '.github/workflows/wasm-soak.yml';
/** The most shards the matrix gets: one per target up to this many runners. */
export const MAX_SHARDS = 4;
/** The baseline each night compares against and then replaces (soak-results/baselines/NAME). */
const BASELINE = 'nightly';

// biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template.
const SHARD = '${{ matrix.shard }}';

const checkout = { uses: 'actions/checkout@v4' };
const node = { uses: 'actions/setup-node@v4', with: { 'node-version': 'lts/*', cache: 'npm' } };
const install = { run: 'npm ci' };

/**
 * The soak step's script: the suite with --expect, against last night's
 * baseline when the cache gave one, saving tonight's; out: the result root.
 */
function soakScript(suite, out, shard) {
  return [
    `# Last night's baselines, when the cache had them, are tonight's check (${BASELINE}/<target>).`,
    `if [ -d soak-results/baselines/${BASELINE} ]; then set -- --baseline ${BASELINE}; fi`,
    `npx wasm-soak soak ${suite} --expect${shard ? ` --shard ${shard}` : ''} -o ${out} --save-baseline ${BASELINE} "$@"`,
    '',
  ].join('\n');
}

/** The cache steps that carry a job's baselines from one night to the next; key: a name unique to the job. */
function baselineCache(key, suite) {
  const path = 'soak-results/baselines';
  // A changed suite starts afresh: its targets (and shards) may differ.
  const prefix = `wasm-soak-baselines-${key}-\${{ hashFiles('${suite}') }}-`;
  return {
    restore: {
      name: "Restore last night's baselines",
      uses: 'actions/cache/restore@v4',
      with: { path, key: `${prefix}\${{ github.run_id }}`, 'restore-keys': prefix },
    },
    // Only a run that passed replaces them (a failed step skips this one).
    save: {
      name: "Save tonight's baselines",
      uses: 'actions/cache/save@v4',
      with: { path, key: `${prefix}\${{ github.run_id }}` },
    },
  };
}

const summaryStep = (root) => ({
  name: 'Suite summary',
  if: 'always()',
  run: `if [ -f ${root}/summary.md ]; then cat ${root}/summary.md >> "$GITHUB_STEP_SUMMARY"; fi\n`,
});
const upload = (name, path) => ({
  name: `Upload ${name}`,
  if: 'always()',
  uses: 'actions/upload-artifact@v4',
  with: { name, path, 'if-no-files-found': 'ignore' },
});

/**
 * The workflow for suite (its path as the repository root sees it, '/'
 * separated) of targets targets: { name, on, permissions, jobs }. One job
 * when the suite has one target; else a matrix of --shard K/N jobs (N:
 * targets, at most MAX_SHARDS) and a merge job that writes one report.
 */
export function ciWorkflow({ suite, targets }) {
  const shards = Math.min(targets, MAX_SHARDS);
  const head = {
    name: 'wasm-soak nightly',
    on: { schedule: [{ cron: '17 3 * * *' }], workflow_dispatch: null },
    permissions: { contents: 'read' },
  };
  if (shards <= 1) {
    const cache = baselineCache('suite', suite);
    const steps = [
      checkout,
      node,
      install,
      cache.restore,
      { name: 'Soak the suite', run: soakScript(suite, 'soak-results', null) },
      cache.save,
      summaryStep('soak-results'),
      upload('soak-results', 'soak-results'),
    ];
    return { ...head, jobs: { soak: { 'runs-on': 'ubuntu-latest', 'timeout-minutes': 360, steps } } };
  }
  const cache = baselineCache(`${SHARD}-of-${shards}`, suite);
  const out = `shard-${SHARD}`;
  const soak = {
    'runs-on': 'ubuntu-latest',
    'timeout-minutes': 360,
    strategy: { 'fail-fast': false, matrix: { shard: Array.from({ length: shards }, (_, i) => i + 1) } },
    steps: [
      checkout,
      node,
      install,
      cache.restore,
      {
        name: `Soak shard ${SHARD}/${shards}`,
        run: soakScript(suite, out, `${SHARD}/${shards}`),
      },
      cache.save,
      upload(out, out),
    ],
  };
  const merge = {
    needs: 'soak',
    if: 'always()',
    'runs-on': 'ubuntu-latest',
    steps: [
      checkout,
      node,
      install,
      { uses: 'actions/download-artifact@v4', with: { pattern: 'shard-*', path: 'shards' } },
      { name: 'Merge the shards', run: 'npx wasm-soak merge shards/shard-* -o soak-results\n' },
      summaryStep('soak-results'),
      upload('soak-results', 'soak-results'),
    ],
  };
  return { ...head, jobs: { soak, merge } };
}

// A plain scalar YAML reads back as the same string; anything else is quoted.
const PLAIN = /^[A-Za-z0-9_./@$-][A-Za-z0-9_./@$ -]*$/;
const RESERVED = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', '~', '']);

/** A scalar as YAML: numbers and booleans bare, null empty, strings plain or single-quoted. */
function scalar(v) {
  if (v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const s = String(v);
  if (PLAIN.test(s) && !RESERVED.has(s.toLowerCase()) && !/^[\d.+-]/.test(s) && !s.endsWith(' ')) return s;
  return `'${s.replaceAll("'", "''")}'`;
}

const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * value (maps, lists, strings, numbers, booleans, null) as block YAML,
 * indented by indent spaces. A string with a newline is a literal block
 * (`|`); a list of scalars is a flow list. Returns the lines, without the
 * final newline.
 */
export function toYaml(value, indent = 0) {
  const pad = ' '.repeat(indent);
  const lines = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      if (isMap(item)) {
        const [first, ...rest] = toYaml(item, indent + 2);
        lines.push(`${pad}- ${first.slice(indent + 2)}`, ...rest);
      } else lines.push(`${pad}- ${scalar(item)}`);
    }
    return lines;
  }
  for (const [key, v] of Object.entries(value)) {
    const k = scalar(key);
    if (typeof v === 'string' && v.includes('\n')) {
      lines.push(`${pad}${k}: |`);
      for (const line of v.replace(/\n$/, '').split('\n')) lines.push(line ? `${pad}  ${line}` : '');
    } else if (Array.isArray(v) && v.every((x) => !isMap(x) && !Array.isArray(x))) {
      lines.push(`${pad}${k}: [${v.map(scalar).join(', ')}]`);
    } else if (isMap(v) || Array.isArray(v)) {
      lines.push(`${pad}${k}:`, ...toYaml(v, indent + 2));
    } else lines.push(`${pad}${k}:${v === null ? '' : ` ${scalar(v)}`}`);
  }
  return lines;
}

/**
 * Writes the nightly workflow for the suite file at suitePath to out
 * (default CI_WORKFLOW under the current folder), never over an existing
 * file unless force. Returns { file, suite, targets, shards }. Throws exit-2
 * SoakErrors for a suite it cannot read or a file it would overwrite.
 */
export function writeCiWorkflow({ suitePath, out = null, force = false, version }) {
  if (!suitePath)
    throw usageError(
      'WS_EUSAGE',
      'init --ci needs the suite file the nightly job runs.',
      'Give it: `wasm-soak init --ci soak/suite.json` (docs/suites.md).',
    );
  let targets;
  try {
    targets = JSON.parse(readFileSync(suitePath, 'utf8')).targets;
  } catch (err) {
    throw usageError('WS_ESUITE', `${suitePath}: ${err.message}`, 'Give a suite file (docs/suites.md).');
  }
  if (!Array.isArray(targets) || targets.length === 0)
    throw usageError(
      'WS_ESUITE',
      `${suitePath} lists no targets.`,
      'A suite file is { "targets": [ … ] } (docs/suites.md).',
    );
  const file = resolve(out ?? CI_WORKFLOW);
  if (existsSync(file) && !force)
    throw usageError('WS_EEXIST', `${file} exists already.`, 'Give another file with -o, or --force to write over it.');
  const suite = relative(process.cwd(), resolve(suitePath)).split(sep).join('/');
  const workflow = ciWorkflow({ suite, targets: targets.length });
  const header = [
    `# Written by \`wasm-soak init --ci ${suite}\` (wasm-soak ${version}): the nightly soak of the suite`,
    "# with --expect, each target against last night's baseline (restored from the cache; a",
    "# changed suite starts afresh), summary.md in the job's step summary, and the result",
    '# folders (junit.xml, index.html, report.html per target) uploaded. docs/suites.md, "A nightly job".',
  ];
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${[...header, ...toYaml(workflow)].join('\n')}\n`);
  return { file, suite, targets: targets.length, shards: Math.min(targets.length, MAX_SHARDS) };
}
