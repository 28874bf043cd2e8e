import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmptySchema } from '@bufbuild/protobuf/wkt';
import type { MethodRegistry } from '../platform/platform.ts';
import { typedUnary } from '../platform/typed-method.ts';

/** A tool the EDA demo flow's stages use, and whether this server can run it. */
export interface EdaTool {
  name: string;
  /** The program a datum runs ('' for the WebAssembly build, which runs inside node). */
  program: string;
  /** The flow stage that uses it. */
  stage: string;
  purpose: string;
  available: boolean;
  version: string;
  /** How to get it when it is missing. */
  install: string;
}

/** The program in the tools path (':'-separated folders), or the bare name for PATH. */
function located(program: string, toolsPath: string): string {
  if (!toolsPath) return program;
  for (const dir of toolsPath.split(':').filter(Boolean)) {
    const candidate = path.join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return path.join(toolsPath.split(':')[0] ?? '', program);
}

function firstLine(program: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(program, args, { timeout: 10_000 }, (error, stdout, stderr) => {
      const text = `${stdout}${stderr}`.split('\n')[0]?.trim() ?? '';
      // iverilog -V exits 1 without input files but prints its version.
      resolve(error && (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : text || null);
    });
  });
}

async function yosysVersion(): Promise<string | null> {
  try {
    const entry = fileURLToPath(import.meta.resolve('@yowasp/yosys'));
    const manifest = JSON.parse(
      await readFile(path.join(path.dirname(entry), '..', 'package.json'), 'utf8'),
    ) as { version?: string };
    return manifest.version ? `@yowasp/yosys ${manifest.version}` : null;
  } catch {
    return null;
  }
}

/**
 * Looks for every tool (each time: installing one needs no restart), in `toolsPath` when given
 * (IVORY_EDA_TOOLS_PATH: the flow's stages look there too), else on PATH.
 */
export async function detectEdaTools(toolsPath = ''): Promise<EdaTool[]> {
  const [yosys, iverilog, vvp, verilator, sta] = await Promise.all([
    yosysVersion(),
    firstLine(located('iverilog', toolsPath), ['-V']),
    firstLine(located('vvp', toolsPath), ['-V']),
    firstLine(located('verilator', toolsPath), ['--version']),
    firstLine(located('sta', toolsPath), ['-version']),
  ]);
  return [
    {
      name: 'Yosys',
      program: '',
      stage: 'elaborate, synth',
      purpose: 'elaboration, checks and synthesis (WebAssembly build, runs inside node)',
      available: yosys !== null,
      version: yosys ?? '',
      install: 'npm install (the server workspace depends on @yowasp/yosys)',
    },
    {
      name: 'Icarus Verilog',
      program: 'iverilog',
      stage: 'simulate',
      purpose: 'runs the testbench',
      available: iverilog !== null && vvp !== null,
      version: iverilog ?? '',
      install: 'apt-get install iverilog',
    },
    {
      name: 'Verilator',
      program: 'verilator',
      stage: 'lint',
      purpose: 'lints the RTL',
      available: verilator !== null,
      version: verilator ?? '',
      install: 'apt-get install verilator',
    },
    {
      name: 'OpenSTA',
      program: 'sta',
      stage: 'timing',
      purpose: 'static timing of the mapped netlist (worst path delay)',
      available: sta !== null,
      version: sta === null ? '' : `OpenSTA ${sta}`,
      install: 'apt-get install opensta',
    },
  ];
}

/** omni_v1.API/InspectEdaTools {} → {tools: EdaTool[]}: what this server's flows can run. */
export function registerEdaToolsApi(methods: MethodRegistry, toolsPath = ''): void {
  methods.set(
    'omni_v1.API/InspectEdaTools',
    typedUnary(EmptySchema, async () => ({ tools: await detectEdaTools(toolsPath) })),
  );
}
