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

/** snake_case → lowerCamelCase keys, leaving map values' keys alone. */
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

/** A user spec (already parsed) checked against the JSON Schema; request-only fields removed. */
export function checkUserSpec(spec: WireObject): WireObject {
  if (!validateSpecSchema(spec))
    throw invalidArgument(`invalid pipeline spec: ${schemaMessage(validateSpecSchema.errors)}`);
  const copy = { ...spec };
  for (const field of requestOnlyFields) delete copy[field];
  return copy;
}

/**
 * An effective spec (defaults applied) checked as a whole: the JSON Schema, then the engine's
 * reading of it. `what` names it in the message (`pipeline edges under these defaults`).
 */
export function checkEffectiveSpec(effective: WireObject, what: string): void {
  if (!validateSpecSchema(effective))
    throw invalidArgument(`invalid ${what}: ${schemaMessage(validateSpecSchema.errors)}`);
  try {
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

/** Deep merge: objects merge key by key, anything else in `over` replaces `base`. */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
  const out: WireObject = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = deepMerge(base[key], value);
  return out;
}

/** The effective spec: cluster defaults, then project defaults, then the user's spec on top. */
export function effectiveSpec(
  userSpec: WireObject,
  clusterDefaults: WireObject,
  projectDefaults: WireObject,
): WireObject {
  const fromDefaults = deepMerge(
    clusterDefaults.createPipelineRequest ?? {},
    projectDefaults.createPipelineRequest ?? {},
  );
  const merged = deepMerge(fromDefaults, userSpec) as WireObject;
  for (const field of requestOnlyFields) delete merged[field];
  return merged;
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
    if (!pfs.glob) throw invalidArgument(`${field}.pfs.glob is required`);
    return {
      kind: 'pfs',
      project: pfs.project,
      name: pfs.name || pfs.repo,
      repo: pfs.repo,
      branch: pfs.branch || 'master',
      commit: pfs.commit,
      glob: pfs.glob,
      joinOn: pfs.joinOn,
      outerJoin: pfs.outerJoin,
      groupBy: pfs.groupBy,
      lazy: pfs.lazy,
      emptyFiles: pfs.emptyFiles,
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
    children: children.map((child, i) => readInput(child, `${field}.${kind}[${i}]`, pipelineName)),
  };
}

/** Fills in input projects (default: the pipeline's). */
function withProjects(input: InputSpec, project: string): InputSpec {
  if (input.kind === 'pfs' || input.kind === 'cron')
    return { ...input, project: input.project || project };
  return { ...input, children: input.children.map((c) => withProjects(c, project)) };
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
  const transform = request.transform ?? create(pps_v2.TransformSchema);
  if (transform.cmd.length === 0) throw invalidArgument('transform.cmd is required');
  if (!request.input)
    throw invalidArgument('input is required: the embedded platform runs transform pipelines');
  const input = withProjects(readInput(request.input, 'input', name), project);
  const names = inputLeaves(input).map((leaf) => leaf.name);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate)
    throw invalidArgument(`two inputs are named ${duplicate}: give them distinct names`);
  if (names.includes('out')) throw invalidArgument('no input may be named "out"');
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
