// @silvia-odwyer/photon-node (Rust + wasm-bindgen, `--target nodejs` glue,
// dlmalloc crate, name section kept): a thumbnail service. Each call decodes
// an uploaded PNG into a PhotonImage, adjusts its contrast (sometimes makes
// it grey), resizes it into a second PhotonImage with one of the five
// sampling filters and reads the thumbnail back as PNG bytes (1 call in 4)
// or raw pixels, then frees both images. The glue registers every
// PhotonImage with a FinalizationRegistry, so an image never freed is
// reclaimed when the garbage collector runs its finalizer and the event loop
// turns. The unfreed twin (photon-unfreed.mjs) leaves out the decoded
// image's .free(), as code that trusts the garbage collector does.
import { require } from './_package.mjs';

/** Returns the scenario; options: { name, unfreed }. */
export function photonScenario({ name, unfreed }) {
  return {
    name,
    setup(ctx) {
      const photon = require('@silvia-odwyer/photon-node');
      const uploads = [16, 40, 72].map((side) => {
        const pixels = new Uint8Array(side * side * 4);
        for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7 + (i >> 6)) & 0xff;
        pixels.set(ctx.bytes(side * 4)); // a row of noise
        const image = new photon.PhotonImage(pixels, side, side);
        const png = image.get_bytes();
        image.free();
        return png;
      });
      const filters = ['Nearest', 'Triangle', 'CatmullRom', 'Gaussian', 'Lanczos3'].map(
        (f) => photon.SamplingFilter[f],
      );
      return { photon, uploads, filters, bytes: 0 };
    },
    iteration(state, ctx) {
      const { photon } = state;
      const image = photon.PhotonImage.new_from_byteslice(ctx.pick(state.uploads));
      photon.adjust_contrast(image, ctx.int(-20, 40));
      if (ctx.random() < 0.5) photon.grayscale(image);
      const side = ctx.int(8, 48);
      const thumb = photon.resize(image, side, side, ctx.pick(state.filters));
      const out = ctx.random() < 0.25 ? thumb.get_bytes() : thumb.get_raw_pixels();
      if (out.length === 0) throw new Error('photon wrote an empty thumbnail');
      state.bytes += out.length;
      thumb.free();
      if (!unfreed) image.free();
    },
  };
}

export default photonScenario({ name: 'photon', unfreed: false });
