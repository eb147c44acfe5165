// The allocation sites as a pprof profile (profile.proto, gzipped), which
// `go tool pprof`, speedscope and Pyroscope read: one sample per site, its
// locations the site's frames innermost first (a location per function,
// its address the function's body offset in the module), its op as the
// label "op", and four values over the whole counting pass: alloc_objects
// and alloc_space (blocks and bytes the site allocated), inuse_objects and
// inuse_space (its blocks and bytes still live at the end). Encoded with
// the pprof-format package.
import { gzipSync } from 'node:zlib';
import {
  Label,
  Line,
  Location,
  Function as PprofFunction,
  Profile,
  Sample,
  StringTable,
  ValueType,
} from 'pprof-format';
import { siteValue } from '../analysis/sites.js';
import { SITE_NO_OP, SITE_VALUE } from '../protocol.js';
import { siteFrameName } from './site-names.js';

/**
 * The gzipped profile of raw (sites.json's content: the worker's sites
 * result); ops: the run's op names by index.
 */
export function sitesProfile(raw, ops) {
  const strings = new StringTable();
  const str = (s) => strings.dedup(s);
  const functions = [];
  const locations = [];
  const locationOf = new Map(); // "module:index" -> location id
  const location = (module, frame) => {
    const key = `${module}:${frame.index}`;
    if (!locationOf.has(key)) {
      const id = locations.length + 1;
      functions.push(
        new PprofFunction({
          id,
          name: str(siteFrameName(raw, module, frame)),
          systemName: str(`func[${frame.index}]`),
        }),
      );
      locations.push(new Location({ id, address: frame.offset ?? 0, line: [new Line({ functionId: id })] }));
      locationOf.set(key, id);
    }
    return locationOf.get(key);
  };
  const last = raw.snapshots.at(-1);
  const value = (id, field) => siteValue(last, id, SITE_VALUE[field]);
  const opKey = str('op');
  const samples = raw.sites.map(
    (site, id) =>
      new Sample({
        locationId: site.frames.map((f) => location(site.module, f)),
        value: [value(id, 'allocs'), value(id, 'allocBytes'), value(id, 'liveBlocks'), value(id, 'liveBytes')],
        label: [
          new Label({
            key: opKey,
            str: str(site.op === SITE_NO_OP ? '(outside calls)' : (ops[site.op] ?? `op ${site.op}`)),
          }),
        ],
      }),
  );
  const type = (t, unit) => new ValueType({ type: str(t), unit: str(unit) });
  const sampleType = [
    type('alloc_objects', 'count'),
    type('alloc_space', 'bytes'),
    type('inuse_objects', 'count'),
    type('inuse_space', 'bytes'),
  ];
  const profile = new Profile({
    sampleType,
    sample: samples,
    location: locations,
    function: functions,
    stringTable: strings,
    comment: [
      str(
        `wasm-soak allocation sites: ${raw.frames} innermost wasm frames per site, every allocation recorded (no sampling)`,
      ),
    ],
    defaultSampleType: str('inuse_space'),
  });
  return gzipSync(profile.encode());
}
