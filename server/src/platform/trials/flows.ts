import { invalidArgument } from '../../errors.ts';
import type { PfsStore } from '../pfs/pfs-store.ts';
import type { Pps } from '../pps/index.ts';
import { inputLeaves } from '../pps/spec.ts';
import type { BlobStore } from '../storage/blob-store.ts';

/**
 * Flows: the pipelines of a project labelled `flow=<name>` (spec `metadata.labels`), in stage
 * order. A flow reads its trials' parameters from the repo `<flow>-params`.
 */

export interface FlowStage {
  /** The `stage` label, or the pipeline's name when it has none. */
  name: string;
  pipeline: string;
  labels: Record<string, string>;
  /** Input repos (project/name) of the pipeline. */
  inputs: { project: string; repo: string }[];
}

export interface Flow {
  project: string;
  name: string;
  paramsRepo: string;
  /** Topological order (a stage after the stages it reads), ties by stage name. */
  stages: FlowStage[];
  /** The repo named by a stage's `bolt` label ('' = none). */
  bolt: string;
}

export interface FlowParameter {
  name: string;
  type: string;
  default: string;
  description: string;
}

export interface FlowPluginStage {
  name: string;
  pipeline: string;
  parameters: FlowParameter[];
}

export interface FlowPlugin {
  flow: Flow;
  /** Where the parameters come from: PLUGIN (the bolt's user_plugin/plugin.json), LABELS, NONE. */
  source: 'PLUGIN' | 'LABELS' | 'NONE';
  stages: FlowPluginStage[];
  paramsRepoExists: boolean;
}

export const paramsRepoName = (flow: string) => `${flow}-params`;
/**
 * Where a bolt's plugin description is read, first found wins: the upload modal's default File
 * Path is /rtl and its hint says to upload the rtl folder's user_plugin folder, so it lands at
 * /rtl/user_plugin/plugin.json; /user_plugin/plugin.json (at the bolt's root) is also read.
 */
export const pluginPaths = ['/rtl/user_plugin/plugin.json', '/user_plugin/plugin.json'];

const flowNamePattern = /^[a-zA-Z0-9_-]+$/;

export function checkFlowName(flow: string): string {
  if (!flow) throw invalidArgument('flow is required');
  if (!flowNamePattern.test(flow))
    throw invalidArgument(
      `flow name ${JSON.stringify(flow)} is invalid: only letters, digits, "_" and "-" are allowed`,
    );
  return flow;
}

function labelsOf(effectiveSpec: string): Record<string, string> {
  try {
    const spec = JSON.parse(effectiveSpec) as { metadata?: { labels?: unknown } };
    const labels = spec.metadata?.labels;
    if (!labels || typeof labels !== 'object' || Array.isArray(labels)) return {};
    return Object.fromEntries(
      Object.entries(labels as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
    );
  } catch {
    return {};
  }
}

/** Reads a whole blob. */
export async function readBlob(blobs: BlobStore, hash: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of blobs.read(hash)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export class Flows {
  constructor(
    private readonly pfs: PfsStore,
    private readonly pps: Pps,
    private readonly blobs: BlobStore,
  ) {}

  find(project: string, name: string): Flow {
    const stages: FlowStage[] = [];
    let bolt = '';
    for (const state of this.pps.store.listStates([project])) {
      const version = this.pps.store.version(state.project, state.name, state.version);
      if (!version) continue;
      const labels = labelsOf(version.effective_spec);
      if (labels.flow !== name) continue;
      let inputs: FlowStage['inputs'] = [];
      try {
        inputs = inputLeaves(this.pps.runner.spec(state.project, state.name).input).map((leaf) => ({
          project: leaf.project,
          repo: leaf.repo,
        }));
      } catch {
        // A spec that cannot be read any more still names a stage.
      }
      if (!bolt && labels.bolt) bolt = labels.bolt;
      stages.push({ name: labels.stage || state.name, pipeline: state.name, labels, inputs });
    }
    return {
      project,
      name,
      paramsRepo: paramsRepoName(name),
      stages: order(project, stages),
      bolt,
    };
  }

  /** The flows of a project whose stages name `bolt` in their `bolt` label. */
  flowsOfBolt(project: string, bolt: string): Flow[] {
    const names = new Set<string>();
    for (const state of this.pps.store.listStates([project])) {
      const version = this.pps.store.version(state.project, state.name, state.version);
      if (!version) continue;
      const labels = labelsOf(version.effective_spec);
      if (labels.flow && labels.bolt === bolt && flowNamePattern.test(labels.flow))
        names.add(labels.flow);
    }
    return [...names].sort().map((name) => this.find(project, name));
  }

  /** The `flow` label of a pipeline ('' when it has none or does not exist). */
  flowOfPipeline(project: string, pipeline: string): string {
    const state = this.pps.store.findState(project, pipeline);
    const version = state && this.pps.store.version(state.project, state.name, state.version);
    return version ? (labelsOf(version.effective_spec).flow ?? '') : '';
  }

  /** The stages that run for a trial: those reading the params repo, and downstream of them. */
  runStages(flow: Flow): FlowStage[] {
    const reached = new Set<string>();
    const sources = new Set([`${flow.project}/${flow.paramsRepo}`]);
    for (const stage of flow.stages) {
      if (stage.inputs.some((input) => sources.has(`${input.project}/${input.repo}`))) {
        reached.add(stage.pipeline);
        sources.add(`${flow.project}/${stage.pipeline}`);
      }
    }
    return flow.stages.filter((stage) => reached.has(stage.pipeline));
  }

  paramsRepoExists(flow: Flow): boolean {
    return !!this.pfs.findRepo({ project: flow.project, name: flow.paramsRepo, type: 'user' });
  }

  /** The flow's stages and the parameters they accept. */
  async plugin(flow: Flow): Promise<FlowPlugin> {
    const paramsRepoExists = this.paramsRepoExists(flow);
    const described = flow.bolt ? await this.readPlugin(flow.project, flow.bolt) : null;
    if (described) {
      const stages: FlowPluginStage[] = flow.stages.map((stage) => ({
        name: stage.name,
        pipeline: stage.pipeline,
        parameters:
          described.find((d) => d.name === stage.name || d.name === stage.pipeline)?.parameters ??
          [],
      }));
      for (const d of described)
        if (!stages.some((s) => s.name === d.name || s.pipeline === d.name))
          stages.push({ name: d.name, pipeline: '', parameters: d.parameters });
      return { flow, source: 'PLUGIN', stages, paramsRepoExists };
    }
    const stages = flow.stages.map((stage) => ({
      name: stage.name,
      pipeline: stage.pipeline,
      parameters: Object.entries(stage.labels)
        .filter(([key]) => key.startsWith('param.') && key.length > 'param.'.length)
        .map(([key, value]) => ({
          name: key.slice('param.'.length),
          type: inferType(value),
          default: value,
          description: '',
        }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    }));
    const any = stages.some((stage) => stage.parameters.length > 0);
    return { flow, source: any ? 'LABELS' : 'NONE', stages, paramsRepoExists };
  }

  /** Parameter defaults of every stage (later stages win on a shared name). */
  async defaults(flow: Flow): Promise<Record<string, string>> {
    const plugin = await this.plugin(flow);
    const out: Record<string, string> = {};
    for (const stage of plugin.stages)
      for (const parameter of stage.parameters)
        if (parameter.default !== '') out[parameter.name] = parameter.default;
    return out;
  }

  private async readPlugin(
    project: string,
    bolt: string,
  ): Promise<{ name: string; parameters: FlowParameter[] }[] | null> {
    const repo = this.pfs.findRepo({ project, name: bolt, type: 'user' });
    const branch = repo && this.pfs.findBranch(repo, 'master');
    if (!branch?.head_rowid) return null;
    const head = this.pfs.commitByRowid(branch.head_rowid);
    const file = pluginPaths
      .map((path) => this.pfs.findFile(head, path))
      .find((found) => found?.type === 'FILE');
    if (!file) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse((await readBlob(this.blobs, file.hash)).toString('utf8'));
    } catch {
      return null;
    }
    const stages = (parsed as { stages?: unknown })?.stages;
    if (!Array.isArray(stages)) return null;
    return stages.map((raw, i) => {
      const stage = (raw ?? {}) as { name?: unknown; parameters?: unknown };
      const parameters = Array.isArray(stage.parameters) ? stage.parameters : [];
      return {
        name: typeof stage.name === 'string' ? stage.name : `stage-${i + 1}`,
        parameters: parameters.map((p) => {
          const parameter = (p ?? {}) as Record<string, unknown>;
          const text = (value: unknown) =>
            value === undefined || value === null
              ? ''
              : typeof value === 'string'
                ? value
                : JSON.stringify(value);
          return {
            name: text(parameter.name),
            type: text(parameter.type) || inferType(text(parameter.default)),
            default: text(parameter.default),
            description: text(parameter.description),
          };
        }),
      };
    });
  }
}

function inferType(value: string): string {
  if (value === 'true' || value === 'false') return 'boolean';
  if (value !== '' && Number.isFinite(Number(value))) return 'number';
  return 'string';
}

/** Kahn's algorithm over "reads the output of"; ready stages by (stage name, pipeline). */
function order(project: string, stages: FlowStage[]): FlowStage[] {
  const byPipeline = new Map(stages.map((stage) => [stage.pipeline, stage]));
  const upstream = new Map(
    stages.map((stage) => [
      stage.pipeline,
      new Set(
        stage.inputs
          .filter((input) => input.project === project && byPipeline.has(input.repo))
          .map((input) => input.repo)
          .filter((repo) => repo !== stage.pipeline),
      ),
    ]),
  );
  const compare = (a: FlowStage, b: FlowStage) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.pipeline < b.pipeline ? -1 : 1;
  const done = new Set<string>();
  const out: FlowStage[] = [];
  while (out.length < stages.length) {
    const ready = stages
      .filter((s) => !done.has(s.pipeline))
      .filter((s) => [...(upstream.get(s.pipeline) ?? [])].every((u) => done.has(u)))
      .sort(compare);
    // A cycle cannot be created (inputs must exist first), but never loop forever.
    const next =
      ready[0] ?? stages.filter((s) => !done.has(s.pipeline)).sort(compare)[0] ?? undefined;
    if (!next) break;
    done.add(next.pipeline);
    out.push(next);
  }
  return out;
}
