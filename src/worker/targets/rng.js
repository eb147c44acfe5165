// Seeded random helpers for scenarios (ctx.random, ctx.int, ...). sfc32,
// seeded through splitmix32, so a seed reproduces a scenario's inputs.

function splitmix32(state) {
  return () => {
    state = (state + 0x9e3779b9) | 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'tra',
  'ven',
  'sul',
  'or',
  'qui',
  'zé',
  'ñu',
  'ø',
  'δα',
  'шк',
  '語',
  'x',
  'th',
  'ae',
  'rn',
];
const PUNCTUATION = [' ', ' ', ' ', ' ', ', ', '. ', '\n', '; ', ' "', '" ', '-'];

/** Returns the seeded helpers used as ctx.random/int/pick/bytes/string/lognormal. */
export function createRandom(seed) {
  const init = splitmix32(Number(BigInt.asUintN(32, BigInt(seed))));
  let a = init(),
    b = init(),
    c = init(),
    d = init();
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  const random = () => next() / 4294967296;
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = (array) => array[Math.floor(random() * array.length)];
  const bytes = (n) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      const x = next();
      for (let k = 0; k < 4 && i + k < n; k++) out[i + k] = x >>> (8 * k);
    }
    return out;
  };
  const string = (n) => {
    let s = '';
    while (s.length < n) {
      s += pick(SYLLABLES);
      if (random() < 0.3) s += pick(PUNCTUATION);
      if (random() < 0.05) s += String(int(0, 99999));
    }
    return s.slice(0, n);
  };
  const lognormal = (mu, sigma) => {
    const u = 1 - random();
    const v = random();
    return Math.exp(mu + sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
  };
  return { random, int, pick, bytes, string, lognormal };
}
