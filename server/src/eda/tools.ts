import { execFile } from 'node:child_process';
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

/** Looks for every tool (each time: installing one needs no restart). */
export async function detectEdaTools(): Promise<EdaTool[]> {
  const [yosys, iverilog, vvp, verilator] = await Promise.all([
    yosysVersion(),
    firstLine('iverilog', ['-V']),
    firstLine('vvp', ['-V']),
    firstLine('verilator', ['--version']),
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
  ];
}

/** omni_v1.API/InspectEdaTools {} → {tools: EdaTool[]}: what this server's flows can run. */
export function registerEdaToolsApi(methods: MethodRegistry): void {
  methods.set(
    'omni_v1.API/InspectEdaTools',
    typedUnary(EmptySchema, async () => ({ tools: await detectEdaTools() })),
  );
}
