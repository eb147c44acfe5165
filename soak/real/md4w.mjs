// md4w (Zig, std.heap.WasmAllocator; keeps names): render generated Markdown
// documents (headings, lists, emphasis, links, code blocks, tables) to HTML
// and to a JSON tree. Zig frees everything inside render, so there is no
// object to leak and no leaking twin.
function markdown(ctx) {
  const lines = [];
  for (let b = ctx.int(1, 12); b > 0; b--) {
    const kind = ctx.int(0, 5);
    if (kind === 0) lines.push(`${'#'.repeat(ctx.int(1, 4))} ${ctx.string(ctx.int(4, 40))}`);
    else if (kind === 1) for (let i = ctx.int(1, 6); i > 0; i--) lines.push(`- ${ctx.string(ctx.int(4, 60))}`);
    else if (kind === 2) lines.push('```js', ctx.string(ctx.int(10, 300)), '```');
    else if (kind === 3) lines.push('| a | b |', '|---|---|', `| ${ctx.string(8)} | ${ctx.int(0, 999)} |`);
    else lines.push(`${ctx.string(ctx.int(20, 400))} *${ctx.string(8)}* [link](https://example.org/${ctx.int(0, 99)})`);
    lines.push('');
  }
  return lines.join('\n');
}

export default {
  name: 'md4w',
  async setup() {
    const md4w = await import('md4w');
    await md4w.init('fast'); // reads md4w-fast.wasm beside its glue
    return { md4w, chars: 0 };
  },
  ops: {
    html: {
      weight: 3,
      run(state, ctx) {
        state.chars += state.md4w.mdToHtml(markdown(ctx)).length;
      },
    },
    json: {
      weight: 1,
      run(state, ctx) {
        state.chars += state.md4w.mdToJSON(markdown(ctx)).children.length;
      },
    },
  },
};
