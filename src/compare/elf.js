// What compare states about a native arm's shared library before any
// number, read from its ELF bytes alone (nothing loaded): whether it is a
// shared library for this host, the compilers its .comment section names,
// its GNU build-id, the libraries it needs (DT_NEEDED), whether it defines
// its own malloc, and the command line when the compiler recorded one
// (-frecord-gcc-switches: .GCC.command.line).

const MACHINES = { 62: 'x86-64', 183: 'AArch64', 3: 'i386', 40: 'ARM', 243: 'RISC-V' };
const HOST_MACHINE = { x64: 62, arm64: 183, ia32: 3, arm: 40, riscv64: 243 };
const ET_DYN = 3;
const SHT_DYNSYM = 11;
const DT_NEEDED = 1;

/**
 * Why the ELF file bytes cannot be loaded into this process (not a 64-bit
 * little-endian shared library for this machine), as a phrase, or null.
 */
export function elfProblem(bytes) {
  if (bytes.length < 64) return 'it is truncated (shorter than an ELF header)';
  if (bytes[4] !== 2 || bytes[5] !== 1) return `it is a ${bytes[4] === 1 ? '32' : 'non-64'}-bit or big-endian ELF file`;
  const machine = bytes.readUInt16LE(18);
  const host = HOST_MACHINE[process.arch];
  if (machine !== host) {
    return `it is built for ${MACHINES[machine] ?? `machine ${machine}`}, and this machine is ${MACHINES[host] ?? process.arch}`;
  }
  if (bytes.readUInt16LE(16) !== ET_DYN)
    return 'it is an ELF file but not a shared library (an executable or an object file)';
  return null;
}

/** The section headers: [{ name, type, offset, size, link }]. */
function sections(bytes) {
  const shoff = Number(bytes.readBigUInt64LE(0x28));
  const size = bytes.readUInt16LE(0x3a);
  const count = bytes.readUInt16LE(0x3c);
  const names = bytes.readUInt16LE(0x3e);
  if (shoff === 0 || shoff + size * count > bytes.length) return [];
  const raw = Array.from({ length: count }, (_, i) => {
    const at = shoff + i * size;
    return {
      nameAt: bytes.readUInt32LE(at),
      type: bytes.readUInt32LE(at + 4),
      offset: Number(bytes.readBigUInt64LE(at + 0x18)),
      size: Number(bytes.readBigUInt64LE(at + 0x20)),
      link: bytes.readUInt32LE(at + 0x28),
    };
  });
  const strtab = raw[names];
  return raw.map((s) => ({ ...s, name: strtab ? cString(bytes, strtab.offset + s.nameAt) : '' }));
}

function cString(bytes, at) {
  const end = bytes.indexOf(0, at);
  return bytes.toString('latin1', at, end < 0 ? bytes.length : end);
}

const body = (bytes, s) => bytes.subarray(s.offset, Math.min(bytes.length, s.offset + s.size));

/** The distinct NUL-separated strings of a section. */
const strings = (bytes, s) => [
  ...new Set(
    body(bytes, s)
      .toString('utf8')
      .split('\0')
      .map((t) => t.trim())
      .filter(Boolean),
  ),
];

/** The GNU build-id note's bytes as hex, or null. */
function buildId(bytes, s) {
  const b = body(bytes, s);
  if (b.length < 16) return null;
  const namesz = b.readUInt32LE(0);
  const descsz = b.readUInt32LE(4);
  const desc = 12 + Math.ceil(namesz / 4) * 4;
  return b.subarray(desc, desc + descsz).toString('hex') || null;
}

/** The DT_NEEDED libraries of the .dynamic section. */
function needed(bytes, all, s) {
  const strtab = all[s.link];
  const b = body(bytes, s);
  const out = [];
  for (let at = 0; at + 16 <= b.length; at += 16) {
    const tag = b.readBigInt64LE(at);
    if (tag === 0n) break;
    if (tag === BigInt(DT_NEEDED)) out.push(cString(bytes, strtab.offset + Number(b.readBigUInt64LE(at + 8))));
  }
  return out;
}

/** Whether the dynamic symbol table defines name (not only imports it). */
function defines(bytes, all, name) {
  const dynsym = all.find((s) => s.type === SHT_DYNSYM);
  if (!dynsym) return false;
  const strtab = all[dynsym.link];
  const b = body(bytes, dynsym);
  for (let at = 0; at + 24 <= b.length; at += 24) {
    if (b.readUInt16LE(at + 6) !== 0 && cString(bytes, strtab.offset + b.readUInt32LE(at)) === name) return true;
  }
  return false;
}

/**
 * Facts of a shared library's bytes (elfProblem(bytes) null): { machine,
 * compilers: [.comment strings], buildId, needed: [library], ownMalloc,
 * commandLine: [.GCC.command.line strings] }.
 */
export function elfFacts(bytes) {
  const all = sections(bytes);
  const named = (name) => all.find((s) => s.name === name);
  const comment = named('.comment');
  const note = named('.note.gnu.build-id');
  const dynamic = named('.dynamic');
  const commandLine = named('.GCC.command.line');
  return {
    machine: MACHINES[bytes.readUInt16LE(18)] ?? String(bytes.readUInt16LE(18)),
    compilers: comment ? strings(bytes, comment) : [],
    buildId: note ? buildId(bytes, note) : null,
    needed: dynamic ? needed(bytes, all, dynamic) : [],
    ownMalloc: defines(bytes, all, 'malloc'),
    commandLine: commandLine ? strings(bytes, commandLine) : [],
  };
}
