// What the exports of the allocation sites (pprof.js, dhat.js) call a
// site's frame: its function's name, with its module's number when the run
// had more than one.

/** The name of frame (sites.json's { index, name, offset }) of module, in raw (sites.json's content). */
export const siteFrameName = (raw, module, frame) =>
  raw.modules.length > 1 ? `${frame.name} (module ${module})` : frame.name;
