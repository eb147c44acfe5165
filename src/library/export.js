// `wasm-soak export DIR --csv` (src/cli/commands/export.js calls
// exportResults): the samples of a result folder as CSV;
// `--pprof`: its allocation sites (sites.json) as a pprof profile; `--dhat`:
// the same sites as JSON for Valgrind's DHAT viewer (dh_view.html).

import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { decodeLog, readResultLogs } from '../analysis/log-reader.js';
import { usageError } from '../errors.js';
import { COMMANDS } from '../options/schema.js';
import { FLAG } from '../protocol.js';
import { damageWords } from '../report/damage-words.js';
import { sitesDhat } from '../report/dhat.js';
import { sitesProfile } from '../report/pprof.js';
import { resultStream, writeResultFile } from '../result-file.js';

/**
 * Writes one CSV row per call (iteration, op, elapsed_ns, memory_bytes, grew,
 * threw) to dir/samples.csv and one per slow sample to dir/metrics.csv;
 * warn(text) is told of a damaged log. Returns the paths written.
 */
async function exportCsv(dir, warn) {
  const path = join(dir, 'samples.wslog');
  const data = decodeLog(path);
  const damage = damageWords(path, data);
  if (damage) warn(damage);
  // An op is named by the module's export (or the scenario): one CSV field, quoted when it must be (RFC 4180).
  const ops = data.header.ops.map((o) => (/[",\r\n]/.test(o.name) ? `"${o.name.replace(/"/g, '""')}"` : o.name));
  const samplesPath = join(dir, 'samples.csv');
  // Never through a link, and a failed write leaves the old file (src/result-file.js).
  const samples = resultStream(samplesPath);
  const out = samples.stream;
  out.write('iteration,op,elapsed_ns,memory_bytes,grew,threw\n');
  let step = 0;
  const { iter, bytes } = data.memory;
  // A damaged log's calls have gaps: call gapIndex[k] has iteration gapIter[k].
  const { gapIndex, gapIter } = data;
  let gap = 0;
  let iteration = -1;
  let rows = [];
  for (let i = 0; i < data.calls; i++) {
    iteration = gap < gapIndex.length && gapIndex[gap] === i ? gapIter[gap++] : iteration + 1;
    while (step + 1 < iter.length && iter[step + 1] <= iteration) step++;
    const f = data.flags[i];
    rows.push(
      `${iteration},${ops[data.op[i]]},${data.elapsed[i]},${bytes[step]},${f & FLAG.grew ? 1 : 0},${f & FLAG.threw ? 1 : 0}`,
    );
    if (rows.length === 4096) {
      if (!out.write(`${rows.join('\n')}\n`)) await once(out, 'drain');
      rows = [];
    }
  }
  if (rows.length) out.write(`${rows.join('\n')}\n`);
  await samples.done();

  const metricsPath = join(dir, 'metrics.csv');
  const lines = ['series,iteration,t_ms,value'];
  for (const [name, s] of Object.entries(data.metrics)) {
    for (let k = 0; k < s.value.length; k++) lines.push(`${name},${s.iter[k]},${s.tMs[k].toFixed(3)},${s.value[k]}`);
  }
  writeResultFile(metricsPath, `${lines.join('\n')}\n`);
  return [samplesPath, metricsPath];
}

/**
 * Writes dir/file, what encode(sites, ops, header) makes of dir/sites.json
 * (sites: its content; ops: the run's op names; header: the timed log's).
 * Returns its path; a usage error (exit 2) when the run had no --sites.
 */
function exportSites(dir, file, encode) {
  if (!existsSync(join(dir, 'sites.json')))
    throw usageError(
      'WS_EUSAGE',
      `${dir} holds no sites.json: its run recorded no allocation sites.`,
      'Run it again with --sites (a counting pass that records where each allocation came from).',
    );
  const { sites, timed } = readResultLogs(dir);
  const path = join(dir, file);
  writeResultFile(
    path,
    encode(
      sites,
      (timed.header.ops ?? []).map((o) => o.name),
      timed.header,
    ),
  );
  return path;
}

/**
 * Exports result folder dir as { csv, pprof, dhat } ask (at least one);
 * warn(text) is told of a damaged log. Resolves the paths written; a usage
 * error (exit 2) when nothing is asked.
 */
export async function exportResults(dir, { csv, pprof, dhat }, { warn = () => {} } = {}) {
  if (!csv && !pprof && !dhat)
    throw usageError('WS_EUSAGE', 'export needs --csv, --pprof or --dhat.', `Usage: ${COMMANDS.export.usage}`);
  const written = [];
  if (csv) written.push(...(await exportCsv(dir, warn)));
  if (pprof) written.push(exportSites(dir, 'sites.pb.gz', sitesProfile));
  if (dhat)
    written.push(
      exportSites(dir, 'dhat.json', (sites, ops, header) =>
        JSON.stringify(sitesDhat(sites, ops, header.reproduce ?? header.command?.join(' ') ?? 'wasm-soak')),
      ),
    );
  return written;
}
