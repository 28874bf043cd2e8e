import { describe, expect, it } from 'vitest';
import type { BoltCommit } from '../platform/trials/index.ts';
import type { ChangedFile } from '../platform/trials/bolt-commits.ts';
import { modulesOf, planEdaCommit } from './bolt-cases.ts';

// Which cases a bolt commit affects, on commits described by hand (the files the planner reads).

const alu =
  'module alu #(parameter WIDTH = 8) (input [WIDTH-1:0] a, output [WIDTH-1:0] y);\n  adder #(WIDTH) add (.a(a), .y(y));\nendmodule\n';
const adder =
  'module adder #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n  assign y = a + 1;\nendmodule\n';
const fifo = 'module fifo (input clk, output y);\n  assign y = clk;\nendmodule\n';

function commitOf(
  files: Record<string, string>,
  changed: ChangedFile[],
  plugin = true,
): BoltCommit {
  return {
    flow: {
      project: 'eda',
      name: 'yosys',
      paramsRepo: 'yosys-params',
      stages: [],
      bolt: 'rtl-bolt',
    },
    bolt: { name: 'rtl-bolt' } as BoltCommit['bolt'],
    commit: { id: 'c1' } as BoltCommit['commit'],
    changed,
    files: Object.keys(files).map(
      (path) => ({ path, type: 'FILE' }) as BoltCommit['files'][number],
    ),
    read: async (path) => files[path] ?? null,
    cases: [
      {
        name: 'alu-8',
        metadata: { case: 'alu-8', design: 'alu' },
        lastParameters: { design: 'alu', width: '8' },
      },
      {
        name: 'fifo-16',
        metadata: { case: 'fifo-16', design: 'fifo' },
        lastParameters: { design: 'fifo' },
      },
    ],
    defaults: plugin ? { design: 'alu', width: '8' } : {},
    lastParameters: null,
  };
}

const base = { '/rtl/alu.v': alu, '/rtl/adder.v': adder, '/rtl/fifo.v': fifo };

describe('the EDA planner', () => {
  it('reads the modules a Verilog file defines, comments left out', () => {
    expect(modulesOf(`// module old;\n${alu}/* module gone; */\n${adder}`)).toEqual([
      'alu',
      'adder',
    ]);
  });

  it('runs the cases whose design changed, with their own last parameters', async () => {
    const plan = await planEdaCommit(commitOf(base, [{ path: '/rtl/alu.v', change: 'changed' }]));
    expect(plan).toEqual([{ caseName: 'alu-8', parameters: { design: 'alu', width: '8' } }]);
  });

  it('runs a case whose design instantiates a changed module, and one whose testbench changed', async () => {
    const submodule = await planEdaCommit(
      commitOf(base, [{ path: '/rtl/adder.v', change: 'changed' }]),
    );
    expect(submodule?.map((p) => p.caseName)).toEqual(['alu-8']);
    const bench = await planEdaCommit(
      commitOf({ ...base, '/rtl/tb/fifo_tb.v': 'module fifo_tb; endmodule\n' }, [
        { path: '/rtl/tb/fifo_tb.v', change: 'changed' },
      ]),
    );
    expect(bench?.map((p) => p.caseName)).toEqual(['fifo-16']);
  });

  it('gives a design described by an uploaded plugin a case of its own', async () => {
    const plugin = JSON.stringify({
      case: 'counter4',
      description: 'A 4-bit counter',
      stages: [{ name: 'yosys-elaborate', parameters: [{ name: 'design', default: 'counter4' }] }],
    });
    const files = {
      ...base,
      '/rtl/counter4.v': 'module counter4(input clk, output reg [3:0] q);\nendmodule\n',
      '/rtl/user_plugin/plugin.json': plugin,
    };
    const plan = await planEdaCommit(
      commitOf(files, [
        { path: '/rtl/counter4.v', change: 'added' },
        { path: '/rtl/user_plugin/plugin.json', change: 'changed' },
      ]),
    );
    expect(plan).toEqual([
      {
        caseName: 'counter4',
        parameters: { design: 'counter4', width: '8' },
        newCase: {
          description: 'A 4-bit counter',
          metadata: { design: 'counter4', rtl: '/rtl/counter4.v' },
        },
      },
    ]);
  });

  it('names a new design after the top module Yosys finds when no plugin describes it', async () => {
    const files = {
      ...base,
      '/rtl/soc/core.v': 'module core(input a, output y);\n  assign y = ~a;\nendmodule\n',
      '/rtl/soc/top.v': 'module soc_top(input a, output y);\n  core c (.a(a), .y(y));\nendmodule\n',
    };
    const plan = await planEdaCommit(
      commitOf(files, [
        { path: '/rtl/soc/core.v', change: 'added' },
        { path: '/rtl/soc/top.v', change: 'added' },
      ]),
    );
    expect(plan?.map((p) => [p.caseName, p.parameters.design, p.newCase?.metadata.rtl])).toEqual([
      ['soc_top', 'soc_top', '/rtl/soc/top.v'],
    ]);
  }, 60_000);

  it('starts nothing for a commit that touches no design, and leaves other flows to the default', async () => {
    expect(
      await planEdaCommit(
        commitOf({ ...base, '/README.md': 'x' }, [{ path: '/README.md', change: 'added' }]),
      ),
    ).toEqual([]);
    const other = commitOf(base, [{ path: '/rtl/alu.v', change: 'changed' }], false);
    other.cases = other.cases.map((c) => ({ ...c, lastParameters: null }));
    expect(await planEdaCommit(other)).toBeNull();
  });
});
