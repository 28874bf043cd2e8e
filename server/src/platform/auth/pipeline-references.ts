import { toJson } from '@bufbuild/protobuf';
import { pps_v2 } from '@ivory/api/proto';
import { invalidArgument } from '../../errors.ts';
import type { Pps } from '../pps/index.ts';
import { inputLeaves, parseJsonObject, readPipelineSpec, type PipelineSpec } from '../pps/spec.ts';
import { jsonRegistry } from '../typed-method.ts';
import type { WireObject } from '../wire.ts';
import { DEFAULT_PROJECT, jsonView, projectName, type RepoRef } from './request-resources.ts';

/**
 * What a pipeline refers to, read from its effective spec (the cluster's and its project's
 * defaults merged in): each is checked against its creator's roles when it is created, and
 * again when it runs.
 */
export interface PipelineReferences {
  project: string;
  name: string;
  /** Its pfs inputs, at any depth of cross, union, join and group: it reads them. */
  reads: RepoRef[];
  /** Its cron inputs' repos: a tick writes them (and creating the pipeline makes a new one). */
  writes: RepoRef[];
  /** The secrets its transform names: it reads their values. */
  secrets: string[];
}

/** What the authorizer asks the pipeline engine about pipelines. */
export interface PipelineLookup {
  /**
   * The references of the pipeline a CreatePipeline(V2) request makes, its defaults merged in.
   * Throws ApiError 3 for a spec that cannot be read (as the call itself would).
   */
  requested(method: string, request: unknown): PipelineReferences;
  /** The references of an existing pipeline's current version; null when there is none. */
  existing(project: string, name: string): PipelineReferences | null;
}

const unique = (refs: RepoRef[]): RepoRef[] => [
  ...new Map(refs.map((ref) => [`${ref.project}/${ref.repo}`, ref])).values(),
];

export function referencesOf(spec: PipelineSpec): PipelineReferences {
  const leaves = inputLeaves(spec.input);
  return {
    project: spec.project,
    name: spec.name,
    reads: unique(
      leaves
        .filter((leaf) => leaf.kind === 'pfs')
        .map((leaf) => ({ project: leaf.project, repo: leaf.repo })),
    ),
    writes: unique(
      leaves
        .filter((leaf) => leaf.kind === 'cron')
        .map((leaf) => ({ project: leaf.project, repo: leaf.repo })),
    ),
    secrets: [...new Set(spec.transform.secrets.map((secret) => secret.name))],
  };
}

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};

/** The user's spec of a CreatePipeline(V2) request, as its handler reads it. */
function userSpecOf(method: string, request: unknown): WireObject {
  const body = asObject(request);
  if (method.endsWith('/CreatePipelineV2')) {
    const text = body.createPipelineRequestJson;
    return parseJsonObject(typeof text === 'string' ? text : '', 'createPipelineRequestJson');
  }
  if ('$typeName' in body)
    return toJson(pps_v2.CreatePipelineRequestSchema, request as pps_v2.CreatePipelineRequest, {
      registry: jsonRegistry,
    }) as WireObject;
  return body as WireObject;
}

/** The pipeline engine's answers, for the authorizer. */
export function pipelineLookup(pps: Pps): PipelineLookup {
  return {
    requested(method, request) {
      const effective = pps.pipelines.effective(userSpecOf(method, request));
      return referencesOf(readPipelineSpec(effective));
    },
    existing(project, name) {
      if (!pps.store.findState(project, name)) return null;
      return referencesOf(pps.runner.spec(project, name));
    },
  };
}

/** How deep a defaults document's inputs may nest (cross inside union inside…). */
const MAX_INPUT_DEPTH = 32;

/**
 * The references a defaults document's `createPipelineRequest` makes itself (they are merged into
 * the specs of the project's or cluster's pipelines): pfs inputs read, cron inputs written (a
 * cron input without a repo makes one in its project: `repo` '' then), secrets read.
 */
export function defaultsReferences(
  document: unknown,
  project: string,
): Omit<PipelineReferences, 'name'> {
  const spec = jsonView(asObject(asObject(document).createPipelineRequest));
  const reads: RepoRef[] = [];
  const writes: RepoRef[] = [];
  const walk = (input: unknown, depth: number): void => {
    if (depth > MAX_INPUT_DEPTH)
      throw invalidArgument(`the inputs are nested deeper than ${MAX_INPUT_DEPTH} levels`);
    const node = asObject(input);
    const pfs = asObject(node.pfs);
    if (typeof pfs.repo === 'string' && pfs.repo)
      reads.push({ project: projectName(pfs.project) || project, repo: pfs.repo });
    if (node.cron !== undefined) {
      const cron = asObject(node.cron);
      writes.push({
        project: projectName(cron.project) || project,
        repo: typeof cron.repo === 'string' ? cron.repo : '',
      });
    }
    for (const kind of ['cross', 'union', 'join', 'group'])
      if (Array.isArray(node[kind])) for (const child of node[kind]) walk(child, depth + 1);
  };
  walk(spec.input, 0);
  const transform = asObject(spec.transform);
  const secrets = (Array.isArray(transform.secrets) ? transform.secrets : [])
    .map((secret) => asObject(secret).name)
    .filter((name): name is string => typeof name === 'string' && name !== '');
  return { project: project || DEFAULT_PROJECT, reads, writes, secrets: [...new Set(secrets)] };
}
