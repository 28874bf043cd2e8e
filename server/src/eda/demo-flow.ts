import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The EDA demo: project `eda`, the bolt `demo-rtl` (RTL under /rtl, the flow's plugin at
 * /rtl/user_plugin/plugin.json) and the flow `yosys`: five pipelines labelled flow/stage that
 * run eda-cli.mjs (Yosys as WebAssembly; Icarus Verilog, Verilator and OpenSTA when installed).
 */
export const EDA_PROJECT = 'eda';
export const EDA_BOLT = 'demo-rtl';
export const EDA_FLOW = 'yosys';
export const EDA_PARAMS_REPO = `${EDA_FLOW}-params`;

/** The command-line entry every stage runs (`node <cli> <stage> …`). */
export const edaCliPath = path.join(import.meta.dirname, 'eda-cli.mjs');
/** The demo's RTL folder, landed at /rtl of the bolt. */
export const edaRtlDir = path.join(import.meta.dirname, 'rtl');

/** The demo's RTL files as bolt paths (`/rtl/alu.v`, …) and their bytes. */
export function edaRtlFiles(): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(edaRtlDir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else out[`/rtl/${child}`] = readFileSync(path.join(edaRtlDir, child));
    }
  };
  walk('');
  return out;
}

interface StageDefinition {
  pipeline: string;
  stage: string;
  description: string;
  /** The stage's command after `node <cli>`; inputs at /pfs/<input>, results in /pfs/out. */
  args: string[];
  input: Record<string, unknown>;
}

const pfsInput = (repo: string, glob = '/') => ({ pfs: { project: EDA_PROJECT, repo, glob } });
const elaborated = `${EDA_FLOW}-elaborate`;
const synthesised = `${EDA_FLOW}-synth`;

/**
 * The stages. The first reads only the params repo: each trial's commit there holds its
 * parameters and the design it runs (the bolt's files under /bolt, copied by reference by the
 * trial service), so a trial runs exactly its case's RTL and a bolt commit starts nothing by
 * itself. The later stages read the forwarded design/ folder alone (glob /design): the RTL, the
 * parameters and the tools' versions, so a datum is reused only when all three are unchanged.
 */
export const edaStages: StageDefinition[] = [
  {
    pipeline: elaborated,
    stage: '1-elaborate',
    description: 'Elaborates and checks the RTL with Yosys (hierarchy -check, proc, check -assert)',
    args: [
      'elaborate',
      '--params',
      `/pfs/${EDA_PARAMS_REPO}`,
      '--bolt',
      `/pfs/${EDA_PARAMS_REPO}/bolt`,
    ],
    input: pfsInput(EDA_PARAMS_REPO),
  },
  {
    pipeline: synthesised,
    stage: '2-synth',
    description:
      'Synthesises with Yosys: cells by type, logic depth; maps to the SKY130 cells for the area',
    args: ['synth', '--in', `/pfs/${elaborated}`],
    input: pfsInput(elaborated, '/design'),
  },
  {
    pipeline: `${EDA_FLOW}-simulate`,
    stage: '3-simulate',
    description: 'Runs the testbench with Icarus Verilog (not run when it is not installed)',
    args: ['simulate', '--in', `/pfs/${elaborated}`],
    input: pfsInput(elaborated, '/design'),
  },
  {
    pipeline: `${EDA_FLOW}-lint`,
    stage: '3-lint',
    description: 'Lints the RTL with Verilator (not run when it is not installed)',
    args: ['lint', '--in', `/pfs/${elaborated}`],
    input: pfsInput(elaborated, '/design'),
  },
  {
    pipeline: `${EDA_FLOW}-timing`,
    stage: '4-timing',
    description:
      'Static timing of the mapped netlist with OpenSTA (not run when it is not installed)',
    args: ['timing', '--in', `/pfs/${synthesised}`],
    input: pfsInput(synthesised, '/design'),
  },
];

/**
 * CreatePipeline requests of the flow's stages (upstream first). `toolsPath`: where the stages
 * look for iverilog, vvp, verilator and sta instead of PATH (IVORY_EDA_TOOLS_PATH).
 */
export function edaPipelineSpecs(options: { toolsPath?: string } = {}): Record<string, unknown>[] {
  return edaStages.map((stage) => ({
    pipeline: { name: stage.pipeline, project: { name: EDA_PROJECT } },
    description: stage.description,
    metadata: { labels: { flow: EDA_FLOW, stage: stage.stage, bolt: EDA_BOLT } },
    transform: {
      cmd: ['node', edaCliPath, ...stage.args, '--out', '/pfs/out'],
      ...(options.toolsPath ? { env: { EDA_TOOLS_PATH: options.toolsPath } } : {}),
    },
    input: stage.input,
    datumTries: 1,
  }));
}

export interface EdaCase {
  name: string;
  description: string;
  /** The design's file in the bolt. */
  rtl: string;
  parameters: Record<string, string>;
}

/**
 * The seeded cases (branches of the bolt labelled `case`) and a trial of each, in this order: a
 * commit to the bolt reruns the flow with the last trial's parameters (the 8-bit ALU's).
 */
export const edaCases: EdaCase[] = [
  {
    name: 'alu-32',
    description: '32-bit ALU',
    rtl: '/rtl/alu.v',
    parameters: { design: 'alu', width: '32' },
  },
  {
    name: 'fifo-16',
    description: '16-word FIFO of 8-bit words, NAND/NOR/NOT gates, abc -dff',
    rtl: '/rtl/fifo.v',
    parameters: { design: 'fifo', width: '8', depth: '16', target: 'cmos', abc_dff: 'true' },
  },
  {
    name: 'alu-8',
    description: '8-bit ALU',
    rtl: '/rtl/alu.v',
    parameters: { design: 'alu', width: '8' },
  },
];
