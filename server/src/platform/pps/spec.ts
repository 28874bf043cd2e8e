import { create } from '@bufbuild/protobuf';
import { durationMs, type Duration } from '@bufbuild/protobuf/wkt';
import { pps_v2 } from '@ivory/api/proto';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { invalidArgument } from '../../errors.ts';
import { checkJsonDepth } from '../json-limits.ts';
import { messageFromJson, safeNumber } from '../typed-method.ts';
import type { WireObject } from '../wire.ts';
import { validateName } from '../pfs/names.ts';
import { defaultProject } from '../pfs/pfs-requests.ts';
import { checkResources, type PipelineResources } from './resources.ts';
import { defaultsSchema, pipelineSpecSchema } from './spec-schema.ts';
import { validatePipeline, validatePipelineRequest } from './spec-validation.ts';

/** Pipeline specs: parsing, validation (JSON Schema), defaults, and the typed view the runner uses. */

export interface PfsInputSpec {
  kind: 'pfs';
  project: string;
  name: string;
  repo: string;
  branch: string;
  commit: string;
  glob: string;
  joinOn: string;
  outerJoin: boolean;
  groupBy: string;
  lazy: boolean;
  emptyFiles: boolean;
  s3: boolean;
}

export interface CronInputSpec {
  kind: 'cron';
  name: string;
  project: string;
  repo: string;
  spec: string;
  overwrite: boolean;
}

export type InputSpec =
  | PfsInputSpec
  | CronInputSpec
  | { kind: 'cross' | 'union' | 'join' | 'group'; children: InputSpec[] };

export interface SecretRef {
  name: string;
  key: string;
  envVar: string;
}

export interface TransformSpec {
  image: string;
  cmd: string[];
  errCmd: string[];
  env: Record<string, string>;
  secrets: SecretRef[];
  stdin: string[];
  errStdin: string[];
  acceptReturnCode: number[];
  workingDir: string;
}

export interface PipelineSpec {
  project: string;
  name: string;
  description: string;
  transform: TransformSpec;
  input: InputSpec;
  parallelism: number;
  datumTries: number;
  datumTimeoutMs: number;
  jobTimeoutMs: number;
  salt: string;
  autoscaling: boolean;
  outputBranch: string;
  /** resourceLimits / resourceRequests (resources.ts: what a datum may use). */
  resources: PipelineResources;
}

/** Fields of a request that are instructions, not part of the stored spec. */
const requestOnlyFields = ['update', 'reprocess', 'dryRun'];
/** Fields whose values are maps: their keys are data, never renamed. */
const mapFields = new Set(['env', 'annotations', 'labels', 'nodeSelector', 'metadata']);

/**
 * snake_case → lowerCamelCase keys, leaving map values' keys alone. (A field set to null stays:
 * over defaults it removes the default, as in a JSON merge patch; see effectiveSpec.)
 */
export function normaliseSpecKeys(value: unknown, parentKey = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => normaliseSpecKeys(v, parentKey));
  if (value === null || typeof value !== 'object') return value;
  const out: WireObject = {};
  for (const [key, inner] of Object.entries(value as WireObject)) {
    const camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    if (mapFields.has(camel) && camel !== 'metadata') out[camel] = inner;
    else out[camel] = normaliseSpecKeys(inner, camel);
  }
  return out;
}

const ajv = new Ajv({ allErrors: true, strict: false });
const validateSpecSchema: ValidateFunction = ajv.compile(pipelineSpecSchema);
const validateDefaultsSchema: ValidateFunction = ajv.compile(defaultsSchema);

function schemaMessage(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '(spec)'} ${e.message ?? 'is invalid'}`)
    .join('; ');
}

export function parseJsonObject(text: string, what: string): WireObject {
  checkJsonDepth(text, what);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalidArgument(`${what} is not valid JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw invalidArgument(`${what} must be a JSON object`);
  return normaliseSpecKeys(parsed) as WireObject;
}

/** A value without its null fields (as protobuf JSON reads null: unset). */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  const out: WireObject = {};
  for (const [key, inner] of Object.entries(value as WireObject))
    if (inner !== null) out[key] = withoutNulls(inner);
  return out;
}

/**
 * A user spec (already parsed) checked against the JSON Schema (its null fields, which remove
 * defaults, left out of the check); request-only fields removed.
 */
export function checkUserSpec(spec: WireObject): WireObject {
  if (!validateSpecSchema(withoutNulls(spec)))
    throw invalidArgument(`invalid pipeline spec: ${schemaMessage(validateSpecSchema.errors)}`);
  const copy = { ...spec };
  for (const field of requestOnlyFields) delete copy[field];
  return copy;
}

/** A spec's JSON as the request message pachd reads (unknown fields dropped). */
export function requestOf(spec: WireObject): pps_v2.CreatePipelineRequest {
  return messageFromJson(pps_v2.CreatePipelineRequestSchema, spec);
}

/**
 * An effective spec (defaults applied) checked as a whole: the JSON Schema, pachd's checks, then
 * the engine's reading of it. `what` names it in the message (`pipeline edges under these
 * defaults`).
 */
export function checkEffectiveSpec(effective: WireObject, what: string): void {
  if (!validateSpecSchema(effective))
    throw invalidArgument(`invalid ${what}: ${schemaMessage(validateSpecSchema.errors)}`);
  try {
    const request = requestOf(effective);
    validatePipelineRequest(request);
    validatePipeline(request);
    readPipelineSpec(effective, { strict: true });
  } catch (error) {
    throw invalidArgument(`invalid ${what}: ${(error as Error).message}`);
  }
}

export function checkDefaults(text: string, what: string): WireObject {
  const parsed = text.trim() === '' ? {} : parseJsonObject(text, what);
  if (!validateDefaultsSchema(parsed))
    throw invalidArgument(`invalid ${what}: ${schemaMessage(validateDefaultsSchema.errors)}`);
  return parsed;
}

const isPlainObject = (value: unknown): value is WireObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A JSON merge patch (RFC 7386, as pachd merges specs over defaults): objects merge key by key, a
 * null in `patch` removes the key, anything else in `patch` replaces `target`.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const out: WireObject = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** pachd's built-in defaults, under the cluster's (its DefaultUserImage, DefaultDatumTries…). */
export const builtInDefaults: WireObject = {
  transform: { image: 'ubuntu:20.04' },
  outputBranch: 'master',
  datumTries: '3',
  reprocessSpec: 'until_success',
};

/**
 * The effective spec, as pachd makes it: the built-in defaults, then the cluster's, then the
 * project's, then the user's spec on top, each a JSON merge patch over the one before.
 */
export function effectiveSpec(
  userSpec: WireObject,
  clusterDefaults: WireObject,
  projectDefaults: WireObject,
): WireObject {
  let merged: unknown = builtInDefaults;
  for (const layer of [
    clusterDefaults.createPipelineRequest ?? {},
    projectDefaults.createPipelineRequest ?? {},
    userSpec,
  ])
    merged = mergePatch(merged, layer);
  const effective = withoutNulls(merged) as WireObject;
  for (const field of requestOnlyFields) delete effective[field];
  return effective;
}

export function specProject(spec: WireObject): string {
  const pipeline = (spec.pipeline ?? {}) as WireObject;
  const project = (pipeline.project ?? {}) as WireObject;
  return typeof project.name === 'string' && project.name ? project.name : defaultProject;
}

/** The fields of a spec the engine reads (the rest is recorded, not interpreted). */
const engineFields = [
  'pipeline',
  'description',
  'transform',
  'input',
  'parallelismSpec',
  'datumTries',
  'datumTimeout',
  'jobTimeout',
  'salt',
  'autoscaling',
  'outputBranch',
  'resourceLimits',
  'resourceRequests',
] as const;

/** A Duration in milliseconds (0 when unset). */
const millis = (value: Duration | undefined): number => (value ? durationMs(value) : 0);

function readInput(input: pps_v2.Input, field: string, pipelineName: string): InputSpec {
  const given = {
    pfs: input.pfs !== undefined,
    cron: input.cron !== undefined,
    cross: input.cross.length > 0,
    union: input.union.length > 0,
    join: input.join.length > 0,
    group: input.group.length > 0,
  };
  const kinds = Object.entries(given)
    .filter(([, set]) => set)
    .map(([kind]) => kind);
  if (kinds.length !== 1)
    throw invalidArgument(
      `${field} needs exactly one of pfs, cron, cross, union, join, group (got ${kinds.join(', ') || 'none'})`,
    );
  const kind = kinds[0] as keyof typeof given;
  if (input.pfs) {
    const pfs = input.pfs;
    if (!pfs.repo) throw invalidArgument(`${field}.pfs.repo is required`);
    if (!pfs.glob && !pfs.s3) throw invalidArgument(`${field}.pfs.glob is required`);
    return {
      kind: 'pfs',
      project: pfs.project,
      name: pfs.name || pfs.repo,
      repo: pfs.repo,
      branch: pfs.branch || 'master',
      commit: pfs.commit,
      glob: pfs.glob || '/',
      joinOn: pfs.joinOn,
      outerJoin: pfs.outerJoin,
      groupBy: pfs.groupBy,
      lazy: pfs.lazy,
      emptyFiles: pfs.emptyFiles,
      s3: pfs.s3,
    };
  }
  if (input.cron) {
    const cron = input.cron;
    if (!cron.name) throw invalidArgument(`${field}.cron.name is required`);
    if (!cron.spec) throw invalidArgument(`${field}.cron.spec is required`);
    return {
      kind: 'cron',
      name: cron.name,
      project: cron.project,
      repo: cron.repo || `${pipelineName}_${cron.name}`,
      spec: cron.spec,
      overwrite: cron.overwrite,
    };
  }
  const children = input[kind as 'cross' | 'union' | 'join' | 'group'];
  return {
    kind: kind as 'cross' | 'union' | 'join' | 'group',
    children: sortedInputs(children).map((child, i) =>
      readInput(child, `${field}.${kind}[${i}]`, pipelineName),
    ),
  };
}

/**
 * A cross's, union's, join's or group's children in pachd's order: sorted (stably) by the name
 * each was given (a pfs input's `name`; none for a cron input or an unnamed one, as pachd sorts
 * before it names inputs after their repos), a combination by its first child's.
 */
export function sortedInputs(children: pps_v2.Input[]): pps_v2.Input[] {
  const givenName = (input: pps_v2.Input): string => {
    if (input.pfs) return input.pfs.name;
    const first = [input.cross, input.join, input.group, input.union].find((l) => l.length > 0);
    return first ? givenName(sortedInputs(first)[0] as pps_v2.Input) : '';
  };
  return children
    .map((child, index) => ({ child, index, name: givenName(child) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.index - b.index))
    .map((entry) => entry.child);
}

/** The typed view of an input message (ListDatum's dry run reads one with no pipeline). */
export function readInputSpec(input: pps_v2.Input, project: string): InputSpec {
  return withProjects(readInput(input, 'input', ''), project);
}

/** Fills in input projects (default: the pipeline's). */
function withProjects(input: InputSpec, project: string): InputSpec {
  if (input.kind === 'pfs' || input.kind === 'cron')
    return { ...input, project: input.project || project };
  return { ...input, children: input.children.map((c) => withProjects(c, project)) };
}

/**
 * The key of a pfs or cron input's commit in a job's input commits: its name, unless a union
 * gives another input the same name over another branch (pachd allows that: only one of them
 * makes any one datum); then its name and branch.
 */
export function inputCommitKey(input: InputSpec, leaf: PfsInputSpec | CronInputSpec): string {
  const source = (l: PfsInputSpec | CronInputSpec) =>
    `${l.project}/${l.repo}@${l.kind === 'cron' ? 'master' : l.branch}`;
  const shared = inputLeaves(input).some((l) => l.name === leaf.name && source(l) !== source(leaf));
  return shared ? `${leaf.name}@${source(leaf)}` : leaf.name;
}

/** Every pfs and cron leaf of an input tree. */
export function inputLeaves(input: InputSpec): (PfsInputSpec | CronInputSpec)[] {
  if (input.kind === 'pfs' || input.kind === 'cron') return [input];
  return input.children.flatMap(inputLeaves);
}

/**
 * The typed view of an effective spec; throws INVALID_ARGUMENT on what cannot run. The fields the
 * engine reads are decoded as a pps_v2.CreatePipelineRequest (protobuf JSON, as pachd reads a
 * spec: snake_case or lowerCamelCase, int64 as numbers or strings, durations as "1.5s").
 */
export function readPipelineSpec(
  spec: WireObject,
  options: { strict?: boolean } = {},
): PipelineSpec {
  const read: WireObject = {};
  for (const field of engineFields) if (spec[field] !== undefined) read[field] = spec[field];
  const request = messageFromJson(pps_v2.CreatePipelineRequestSchema, read);
  const name = request.pipeline?.name ?? '';
  if (!name) throw invalidArgument('pipeline.name is required');
  validateName('pipeline', name);
  const project = request.pipeline?.project?.name || defaultProject;
  // (No cmd is accepted, as pachd accepts it: the pipeline then fails; see Pipelines.create.)
  const transform = request.transform ?? create(pps_v2.TransformSchema);
  if (!request.input)
    throw invalidArgument('input is required: the embedded platform runs transform pipelines');
  const input = withProjects(readInput(request.input, 'input', name), project);
  // Names are checked as pachd checks them (spec-validation.ts); a union's children may share one.
  const names = inputLeaves(input).map((leaf) => leaf.name);
  if (names.includes('out')) throw invalidArgument('input cannot be named out');
  const secrets = transform.secrets.map((secret, i) => {
    if (!secret.name) throw invalidArgument(`transform.secrets[${i}].name is required`);
    return { name: secret.name, key: secret.key, envVar: secret.envVar };
  });
  const datumTries = safeNumber(request.datumTries, 'datumTries');
  const parallelism = safeNumber(
    request.parallelismSpec?.constant ?? 0n,
    'parallelismSpec.constant',
  );
  return {
    project,
    name,
    description: request.description,
    transform: {
      image: transform.image,
      cmd: transform.cmd,
      errCmd: transform.errCmd,
      env: { ...transform.env },
      secrets,
      stdin: transform.stdin,
      errStdin: transform.errStdin,
      acceptReturnCode: transform.acceptReturnCode.map((code, i) =>
        safeNumber(code, `transform.acceptReturnCode[${i}]`),
      ),
      workingDir: transform.workingDir,
    },
    input,
    parallelism: Math.max(1, parallelism || 1),
    datumTries: datumTries > 0 ? datumTries : 3,
    datumTimeoutMs: millis(request.datumTimeout),
    jobTimeoutMs: millis(request.jobTimeout),
    salt: request.salt,
    autoscaling: request.autoscaling,
    outputBranch: request.outputBranch || 'master',
    resources: checkResources(
      request.resourceLimits,
      request.resourceRequests,
      options.strict ?? false,
    ),
  };
}
