// What compare states about a native arm before any number, in the shape
// of a wasm arm's module facts (module-facts.js): its SHA-256 and sizes,
// the toolchain its .comment names, its build-id, the libraries it links,
// the malloc it uses, and the CPU it runs on. The arm's exit-2 input check
// too: a file that is no shared library for this machine.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { basename } from 'node:path';
import { usageError } from '../errors.js';
import { elfFacts, elfProblem } from './elf.js';
import { fingerprint } from './module-facts.js';

// Host CPU features that compilers target beyond the baseline ISA.
const CPU_FLAGS = ['sse4_2', 'avx', 'avx2', 'bmi2', 'avx512f', 'asimd', 'sve'];

/** The host CPU's model and which of CPU_FLAGS it has (Linux /proc/cpuinfo), as words. */
function hostCpu() {
  let flags = [];
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const line = info.match(/^(?:flags|Features)\s*:(.*)$/m)?.[1] ?? '';
    const have = new Set(line.trim().split(/\s+/));
    flags = CPU_FLAGS.filter((f) => have.has(f));
  } catch {}
  return `${cpus()[0]?.model?.trim() || process.arch}${flags.length ? ` (${flags.join(' ')})` : ''}`;
}

/**
 * Facts of the shared library at path: { kind: 'native', sha256, size,
 * producers: null, toolchain, flags, features: [], cpu, imports: ["lib
 * (DT_NEEDED)"], memories: [], allocatorExports, buildId, info: null }.
 * Throws an exit-2 SoakError for a file that is no shared library this
 * process can load.
 */
export function nativeFacts(path) {
  const bytes = readFileSync(path);
  const problem = elfProblem(bytes);
  if (problem) {
    throw usageError(
      'WS_ENATIVE',
      `${path} cannot be a native arm: ${problem}.`,
      'Build the library on this machine from the same source as the wasm arm: clang -shared -fPIC -O2 lib.c -o lib.so (node soak/build.js --native builds the fixtures).',
    );
  }
  const elf = elfFacts(bytes);
  const libc = elf.needed.find((n) => n.startsWith('libc.')) ?? 'the C library';
  return {
    kind: 'native',
    ...fingerprint(bytes),
    producers: null,
    toolchain: `.comment: ${elf.compilers.join('; ') || 'none'}${elf.buildId ? `; build-id ${elf.buildId}` : ''}`,
    // Recorded only by -frecord-gcc-switches (.GCC.command.line).
    flags: elf.commandLine.length ? elf.commandLine.join(' ') : 'not recorded',
    features: [],
    cpu: `${elf.machine} code for this host, ${hostCpu()}; the ISA level used is not recorded`,
    imports: elf.needed.map((n) => `${n} (DT_NEEDED)`),
    memories: [],
    allocatorExports: elf.ownMalloc ? `its own malloc (${basename(path)})` : `the process's malloc (${libc})`,
    buildId: elf.buildId,
    info: null,
  };
}
