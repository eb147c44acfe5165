// meshoptimizer (C compiled to wasm with a bump allocator that its JS glue
// rewinds after every call, so the heap returns to its mark): simplify and
// encode grid meshes of varied resolution with a bumpy height field. Only
// functions, no object to leak, no leaking twin.
import { MeshoptEncoder, MeshoptSimplifier } from 'meshoptimizer';

function grid(ctx, n) {
  const positions = new Float32Array((n + 1) * (n + 1) * 3);
  const phase = ctx.random() * 6;
  for (let y = 0, v = 0; y <= n; y++) {
    for (let x = 0; x <= n; x++, v++) {
      positions.set([x / n, y / n, 0.1 * Math.sin(phase + x * 0.7) * Math.cos(y * 0.5)], v * 3);
    }
  }
  const indices = new Uint32Array(n * n * 6);
  for (let y = 0, i = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const a = y * (n + 1) + x;
      indices.set([a, a + 1, a + n + 1, a + 1, a + n + 2, a + n + 1], i);
      i += 6;
    }
  }
  return { positions, indices };
}

export default {
  name: 'meshoptimizer',
  async setup() {
    await Promise.all([MeshoptEncoder.ready, MeshoptSimplifier.ready]);
    return { bytes: 0 };
  },
  ops: {
    simplify: {
      weight: 1,
      run(state, ctx) {
        const { positions, indices } = grid(ctx, ctx.int(4, 40));
        const target = Math.floor((indices.length * ctx.int(10, 90)) / 300) * 3;
        const [simplified] = MeshoptSimplifier.simplify(indices, positions, 3, target, 0.01);
        state.bytes += simplified.length;
      },
    },
    encode: {
      weight: 2,
      run(state, ctx) {
        const { positions, indices } = grid(ctx, ctx.int(4, 40));
        const vertices = new Uint8Array(positions.buffer);
        state.bytes += MeshoptEncoder.encodeVertexBuffer(vertices, positions.length / 3, 12).length;
        state.bytes += MeshoptEncoder.encodeIndexBuffer(new Uint8Array(indices.buffer), indices.length, 4).length;
      },
    },
  },
};
