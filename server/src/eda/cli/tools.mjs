// The programs the EDA flow's stages run besides Yosys, where they are found and which version
// each is. EDA_TOOLS_PATH (':'-separated folders), when set, is where they are looked for instead
// of PATH: the server passes IVORY_EDA_TOOLS_PATH to the flow's pipelines as that variable.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The optional programs: what provides each and how a missing one is installed. */
export const optionalTools = {
  iverilog: { package: 'iverilog', versionFlag: '-V', name: 'Icarus Verilog' },
  vvp: { package: 'iverilog', versionFlag: '-V', name: 'Icarus Verilog' },
  verilator: { package: 'verilator', versionFlag: '--version', name: 'Verilator' },
  sta: { package: 'opensta', versionFlag: '-version', name: 'OpenSTA' },
};

function searchPath() {
  const list = process.env.EDA_TOOLS_PATH ?? process.env.PATH ?? '';
  return list.split(':').filter(Boolean);
}

/** The program's absolute path, or null when it is not installed where the flow looks. */
export function findTool(program) {
  for (const dir of searchPath()) {
    const candidate = path.join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** The first line a program prints for its version flag ('' when it prints none). */
export function toolVersion(program) {
  const found = findTool(program);
  if (!found) return null;
  const flag = optionalTools[program]?.versionFlag ?? '--version';
  // Some tools print their version to stderr or exit non-zero without input files (iverilog -V).
  const result = spawnSync(found, [flag], { encoding: 'utf8', timeout: 20_000 });
  if (result.error) return null;
  return `${result.stdout ?? ''}${result.stderr ?? ''}`.split('\n')[0].trim() || program;
}

/** The Yosys build the flow runs (the WebAssembly package's version). */
export function yosysVersion() {
  try {
    const entry = fileURLToPath(import.meta.resolve('@yowasp/yosys'));
    const manifest = JSON.parse(
      readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8'),
    );
    return `@yowasp/yosys ${manifest.version}`;
  } catch {
    return 'unknown';
  }
}

/**
 * Every tool's version ('' when missing): forwarded with the design to the later stages, so a
 * datum's identity includes the tools it runs with and installing or upgrading one re-runs it.
 */
export function toolVersions() {
  const versions = { yosys: yosysVersion() };
  for (const program of Object.keys(optionalTools)) versions[program] = toolVersion(program) ?? '';
  return versions;
}

/** The sentence a stage logs (and reports) when its tool is missing. */
export function missingTool(program, what) {
  const tool = optionalTools[program];
  const where = process.env.EDA_TOOLS_PATH
    ? `in EDA_TOOLS_PATH (${process.env.EDA_TOOLS_PATH})`
    : 'on this server';
  return `${tool.name} (${program}) is not installed ${where}: ${what} not run. Install it (Debian: apt-get install ${tool.package}).`;
}
