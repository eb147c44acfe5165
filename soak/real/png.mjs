// @jsquash/png (Rust + wasm-bindgen, dlmalloc, stripped): encode images of a
// few sizes and decode them, to 8-bit ImageData (copied out by the glue) and
// to 16-bit ImageDataRGBA16, a wasm-bindgen object that lives in the wasm
// heap until .free(). The leaking twin (png-leak.mjs) never calls .free(),
// as code that forgets wasm-bindgen objects have no finalizer does.
import { packageBytes } from './_package.mjs';

/** Returns the scenario; options: { name, leak }. */
export function pngScenario({ name, leak }) {
  return {
    name,
    async setup(ctx) {
      const png = await import('@jsquash/png/codec/pkg/squoosh_png.js');
      png.initSync(new WebAssembly.Module(packageBytes('@jsquash/png/codec/pkg/squoosh_png_bg.wasm')));
      const images = [16, 48, 96].map((side) => {
        const pixels = new Uint8Array(side * side * 4);
        for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7 + (i >> 6)) & 0xff;
        pixels.set(ctx.bytes(side * 4)); // a row of noise
        return png.encode(pixels, side, side, 8);
      });
      return { png, images };
    },
    ops: {
      encode: {
        weight: 1,
        run({ png }, ctx) {
          const side = ctx.int(8, 64);
          png.encode(ctx.bytes(side * side * 4), side, side, 8);
        },
      },
      decode: {
        weight: 2,
        run({ png, images }, ctx) {
          const image = png.decode(ctx.pick(images));
          if (image.data.length !== image.width * image.height * 4) throw new Error('png decoded a wrong size');
        },
      },
      decode16: {
        weight: 2,
        run({ png, images }, ctx) {
          const image = png.decode_rgba16(ctx.pick(images));
          if (image.width === 0) throw new Error('png decoded an empty image');
          if (!leak) image.free();
        },
      },
    },
  };
}

export default pngScenario({ name: 'png', leak: false });
