import { chmod, mkdir, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../../src/platform/pps/runner/sandbox.ts';

/**
 * A folder of the EDA flow's tools for IVORY_EDA_TOOLS_PATH, where a sandboxed datum sees it
 * (the project's node_modules/.cache): links to Debian's iverilog, vvp and sta (the test scripts
 * install them: scripts/ensure-packages.sh), and a `verilator` that runs Debian's but reports a
 * version the test sets — installing or upgrading a tool, simulated. `remove` takes a tool away.
 */
export async function edaToolsDir(name: string) {
  const dir = path.join(
    projectRoot,
    'node_modules',
    '.cache',
    `ivory-eda-tools-${name}-${process.pid}`,
  );
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const program of ['iverilog', 'vvp', 'sta'])
    await symlink(`/usr/bin/${program}`, path.join(dir, program));
  const version = path.join(dir, 'verilator.version');
  await writeFile(version, 'Verilator 5.006 (the installed one)\n');
  const wrapper = path.join(dir, 'verilator');
  await writeFile(
    wrapper,
    [
      '#!/bin/sh',
      'if [ "$1" = "--version" ]; then cat "$(dirname "$0")/verilator.version"; exit 0; fi',
      'exec /usr/bin/verilator "$@"',
      '',
    ].join('\n'),
  );
  await chmod(wrapper, 0o755);
  return {
    dir,
    setVerilatorVersion: (text: string) => writeFile(version, `${text}\n`),
    remove: (program: string) => unlink(path.join(dir, program)),
    /** Links Debian's program into the folder (a tool installed, as the flow sees it). */
    install: (program: string) => symlink(`/usr/bin/${program}`, path.join(dir, program)),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}
