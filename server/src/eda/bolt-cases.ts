import { execFile } from 'node:child_process';
import type { BoltCommit, BoltCommitPlanner, PlannedTrial } from '../platform/trials/index.ts';
import { pluginPaths } from '../platform/trials/flows.ts';
import { edaCliPath } from './demo-flow.ts';

/**
 * Which cases of the EDA flow a commit to its bolt affects, and the case a new design gets.
 * A case runs one design: the top module named by its `design` parameter (its last trial's, else
 * its branch's `design` label). A commit touches the modules its changed Verilog files define,
 * the designs whose testbench (`tb/<design>_tb.v`) it changes, and the design of a plugin
 * description it changes. A case is affected when its design is touched, or its design's file
 * instantiates a touched module. A design no case runs gets a case of its own, named by the
 * uploaded `user_plugin/plugin.json` (its `case`, else its `design` default), or — without one —
 * after the top module Yosys finds in the changed files (`hierarchy -auto-top`).
 */

const verilog = (path: string) => /\.s?v$/.test(path);
const testbench = (path: string) => /(^|\/)tb\//.test(path) || /_tb\.s?v$/.test(path);
const caseNamePattern = /^[a-zA-Z0-9_-]+$/;

/** Module names a Verilog text defines. */
export function modulesOf(text: string): string[] {
  const withoutComments = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  return [...withoutComments.matchAll(/\bmodule\s+([A-Za-z_][\w$]*)/g)].map((m) => m[1] ?? '');
}

/** Whether a module's source instantiates (or names) another module. */
function mentions(text: string, module: string): boolean {
  return new RegExp(`\\b${module.replace(/\$/g, '\\$')}\\b\\s*(#\\s*\\(|[A-Za-z_])`).test(text);
}

/** The top module of Verilog files, as Yosys picks it (`eda-cli.mjs top`). */
export function topModule(files: Record<string, string>): Promise<string | null> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [edaCliPath, 'top'],
      { timeout: 120_000, maxBuffer: 1024 * 1024 },
      (error, stdout) => {
        if (error) return resolve(null);
        try {
          const parsed = JSON.parse(stdout) as { top?: unknown };
          resolve(typeof parsed.top === 'string' ? parsed.top : null);
        } catch {
          resolve(null);
        }
      },
    );
    child.stdin?.end(JSON.stringify({ files }));
  });
}

interface PluginCase {
  name: string;
  design: string;
  description: string;
}

/** The case a plugin description names: its `case` (else its `design` default). */
function pluginCase(text: string): PluginCase | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const plugin = (parsed ?? {}) as { case?: unknown; description?: unknown; stages?: unknown };
  let design = '';
  for (const stage of Array.isArray(plugin.stages) ? plugin.stages : []) {
    const parameters = (stage as { parameters?: unknown })?.parameters;
    for (const p of Array.isArray(parameters) ? parameters : []) {
      const parameter = p as { name?: unknown; default?: unknown };
      if (parameter.name === 'design' && typeof parameter.default === 'string')
        design = parameter.default;
    }
  }
  const name = typeof plugin.case === 'string' && plugin.case ? plugin.case : design;
  if (!design || !name) return null;
  return {
    name,
    design,
    description: typeof plugin.description === 'string' ? plugin.description : '',
  };
}

export async function planEdaCommit(commit: BoltCommit): Promise<PlannedTrial[] | null> {
  // The flow's own convention: a `design` parameter names the top module.
  const usesDesign =
    'design' in commit.defaults || commit.cases.some((c) => c.lastParameters?.design);
  if (!usesDesign) return null;
  const sources = new Map<string, string>();
  for (const file of commit.files)
    if (file.type === 'FILE' && verilog(file.path) && !testbench(file.path)) {
      const text = await commit.read(file.path);
      if (text !== null) sources.set(file.path, text);
    }
  const touched = new Set<string>();
  const changedSources: Record<string, string> = {};
  for (const change of commit.changed) {
    if (!verilog(change.path)) continue;
    if (testbench(change.path)) {
      const design = /([A-Za-z_][\w$]*)_tb\.s?v$/.exec(change.path)?.[1];
      if (design) touched.add(design);
      continue;
    }
    const text = sources.get(change.path);
    if (text === undefined) {
      // Deleted: what it defined is gone; its name is the best guess of the module.
      touched.add(/([^/]+)\.s?v$/.exec(change.path)?.[1] ?? '');
      continue;
    }
    changedSources[change.path] = text;
    for (const module of modulesOf(text)) touched.add(module);
  }
  const pluginChange = commit.changed.find(
    (change) => pluginPaths.includes(change.path) && change.change !== 'deleted',
  );
  const described = pluginChange ? pluginCase((await commit.read(pluginChange.path)) ?? '') : null;
  if (described) touched.add(described.design);

  const designOf = (c: BoltCommit['cases'][number]) =>
    c.lastParameters?.design || c.metadata.design || c.name;
  const definingFile = (module: string) =>
    [...sources.values()].find((text) => modulesOf(text).includes(module)) ?? '';
  const planned: PlannedTrial[] = [];
  for (const c of commit.cases) {
    const design = designOf(c);
    const source = definingFile(design);
    const affected =
      touched.has(design) ||
      [...touched].some((module) => module !== design && source && mentions(source, module)) ||
      commit.changed.some((change) => change.path === c.metadata.rtl);
    if (affected)
      planned.push({
        caseName: c.name,
        parameters: c.lastParameters ?? { ...commit.defaults, design },
      });
  }

  const covered = new Set(commit.cases.map(designOf));
  const names = new Set(commit.cases.map((c) => c.name));
  let fresh: PluginCase | null = null;
  if (described && !covered.has(described.design)) fresh = described;
  else if (!described) {
    // Modules of the changed files that no case runs and no other module instantiates: a new
    // design's top is among them (Yosys decides which).
    const candidates = Object.values(changedSources)
      .flatMap(modulesOf)
      .filter(
        (module) =>
          !covered.has(module) &&
          ![...sources.values()].some(
            (text) => !modulesOf(text).includes(module) && mentions(text, module),
          ),
      );
    const top = candidates.length > 0 ? await topModule(changedSources) : null;
    if (top && !covered.has(top) && [...touched].includes(top))
      fresh = { name: top, design: top, description: '' };
  }
  if (fresh && caseNamePattern.test(fresh.name) && !names.has(fresh.name)) {
    const file = Object.entries(changedSources).find(([, text]) =>
      modulesOf(text).includes(fresh.design),
    )?.[0];
    planned.push({
      caseName: fresh.name,
      parameters: { ...commit.defaults, design: fresh.design },
      newCase: {
        description: fresh.description || `${fresh.design}, uploaded to ${commit.bolt.name}`,
        metadata: { design: fresh.design, ...(file ? { rtl: file } : {}) },
      },
    });
  }
  return planned;
}

/** The EDA flow's planner for the trial service. */
export const edaBoltPlanner: BoltCommitPlanner = planEdaCommit;
