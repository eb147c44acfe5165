// @wasm-fmt/zig_fmt (Zig, arena allocator reset after every call): format
// generated Zig sources of varied length, written without the spacing and
// indentation zig fmt puts in. One function, no object to leak, no leaking twin.
import { packageBytes } from './_package.mjs';

function zigSource(ctx) {
  const out = ['const std = @import("std");'];
  for (let f = ctx.int(1, 10); f > 0; f--) {
    const name = `f${ctx.int(0, 9999)}`;
    out.push(`pub fn ${name}(a:u32,b:u32)u32{`);
    for (let s = ctx.int(1, 8); s > 0; s--) {
      out.push(
        ctx.random() < 0.5 ? `var x${s}:u32=a*%${ctx.int(1, 99)}+%b;_=&x${s};` : `if(a>${ctx.int(0, 99)}){return b;}`,
      );
    }
    out.push('return a+%b;}');
  }
  return out.join('\n');
}

export default {
  name: 'zig-fmt',
  async setup() {
    const fmt = await import('@wasm-fmt/zig_fmt');
    await fmt.default(packageBytes('@wasm-fmt/zig_fmt/zig_fmt.wasm'));
    return { fmt, chars: 0 };
  },
  iteration(state, ctx) {
    state.chars += state.fmt.format(zigSource(ctx)).length;
  },
};
