// Test scenario: at iteration 10 the iteration throws the value named by
// the WASM_SOAK_TEST_THROW environment variable: string, undefined, object,
// subclass (an Error subclass) or rejection (a promise rejected with a string).
class ParseError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ParseError';
  }
}
const values = {
  string: () => {
    throw 'a string';
  },
  undefined: () => {
    throw undefined;
  },
  object: () => {
    throw { code: 42, reason: 'bad input' };
  },
  subclass: () => {
    throw new ParseError('unexpected token');
  },
  rejection: () => Promise.reject('rejected string'),
};
const kind = process.env.WASM_SOAK_TEST_THROW ?? 'string';
export default {
  setup() {
    return {};
  },
  iteration(_state, ctx) {
    if (ctx.iteration === 10) return values[kind]();
    return undefined;
  },
};
