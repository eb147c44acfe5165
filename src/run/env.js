// The environment recorded in the log header and the report.
import os from 'node:os';

export function describeEnvironment() {
  const cpus = os.cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cpus: cpus.length,
    platform: process.platform,
    arch: process.arch,
    os: `${os.type()} ${os.release()}`,
  };
}
