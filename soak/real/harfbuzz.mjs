// harfbuzzjs (Emscripten, dlmalloc; exports malloc/free unminified): shape
// text runs of varied length and size with one font (Debian's DejaVu Sans,
// fonts-dejavu-core). harfbuzzjs frees its objects only through a
// FinalizationRegistry, so a dropped Buffer is freed when the event loop
// turns (the runner yields between batches). The leaking twin
// (harfbuzz-leak.mjs) keeps every Font it creates in a cache that is never
// evicted, as code that keys fonts by something unbounded does: those fonts
// and their shaping plans can never be destroyed.
import { readFileSync } from 'node:fs';

export const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/** Returns the scenario; options: { name, leak }. */
export function harfbuzzScenario({ name, leak }) {
  return {
    name,
    async setup() {
      const hb = await import('harfbuzzjs');
      const face = new hb.Face(new hb.Blob(readFileSync(FONT)), 0);
      const font = new hb.Font(face);
      return { hb, face, font, fonts: [], advance: 0 };
    },
    iteration(state, ctx) {
      const { hb } = state;
      let font = state.font;
      if (leak) {
        font = new hb.Font(state.face);
        font.setScale(ctx.int(8, 72) * 64, ctx.int(8, 72) * 64);
        state.fonts.push(font);
      }
      const buffer = new hb.Buffer();
      buffer.addText(ctx.string(ctx.int(4, 200)));
      buffer.guessSegmentProperties();
      hb.shape(font, buffer);
      for (const p of buffer.getGlyphPositions()) state.advance += p.xAdvance;
    },
  };
}

export default harfbuzzScenario({ name: 'harfbuzz', leak: false });
