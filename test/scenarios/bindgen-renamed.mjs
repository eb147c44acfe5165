// Test scenario: a wasm-bindgen-shaped module whose allocator exports have
// numbered names (test/fixtures/bindgen-renamed.js is its glue); keep leaks.
export default {
  setup: () => import('../fixtures/bindgen-renamed.js'),
  ops: {
    echo: { weight: 2, run: (glue) => glue.echo('hello') },
    name: { weight: 1, run: (glue) => glue.name() },
    keep: { weight: 1, run: (glue) => glue.keep() },
  },
};
