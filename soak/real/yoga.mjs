// yoga-layout (Emscripten, dlmalloc, embind): build a small flexbox tree per
// call (a row of items with varied sizes, margins and wrapping), lay it out,
// read the positions and free the tree with freeRecursive(). The leaking
// twin (yoga-leak.mjs) drops the tree without freeing it: embind objects
// have no finalizer, so its nodes stay in the wasm heap.
import { FlexDirection, Justify, Wrap } from 'yoga-layout';

/** Returns the scenario; options: { name, leak }. */
export function yogaScenario({ name, leak }) {
  return {
    name,
    async setup() {
      const { default: Yoga } = await import('yoga-layout');
      const config = Yoga.Config.create(); // long-lived, freed in teardown
      return { Yoga, config, width: 0 };
    },
    iteration(state, ctx) {
      const { Yoga, config } = state;
      const root = Yoga.Node.create(config);
      root.setFlexDirection(FlexDirection.Row);
      root.setFlexWrap(ctx.random() < 0.5 ? Wrap.Wrap : Wrap.NoWrap);
      root.setJustifyContent(ctx.pick([Justify.FlexStart, Justify.Center, Justify.SpaceBetween]));
      root.setWidth(ctx.int(200, 800));
      const items = ctx.int(2, 24);
      for (let i = 0; i < items; i++) {
        const child = Yoga.Node.create(config);
        child.setWidth(ctx.int(10, 120));
        child.setHeight(ctx.int(10, 60));
        child.setMargin(ctx.int(0, 3), ctx.int(0, 8));
        if (ctx.random() < 0.3) child.setFlexGrow(1);
        root.insertChild(child, i);
      }
      root.calculateLayout(undefined, undefined);
      state.width += root.getChild(items - 1).getComputedLeft();
      if (!leak) root.freeRecursive();
    },
    teardown({ config }) {
      config.free();
    },
  };
}

export default yogaScenario({ name: 'yoga', leak: false });
