import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { invalidArgument } from '../../errors.ts';
import { readDuration, readInt, type WireObject } from '../wire.ts';
import { validateName } from '../pfs/names.ts';
import { defaultProject } from '../pfs/pfs-requests.ts';
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
    readPipelineSpec(effective);
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

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const bool = (value: unknown): boolean => value === true;
const strList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

function readInput(value: unknown, field: string, pipelineName: string): InputSpec {
  if (!isPlainObject(value)) throw invalidArgument(`${field} must be an object`);
  const kinds = ['pfs', 'cron', 'cross', 'union', 'join', 'group'].filter(
    (k) => value[k] !== undefined && value[k] !== null,
  );
  if (kinds.length !== 1)
    throw invalidArgument(
      `${field} needs exactly one of pfs, cron, cross, union, join, group (got ${kinds.join(', ') || 'none'})`,
    );
  const kind = kinds[0] as string;
  if (kind === 'pfs') {
    const pfs = value.pfs as WireObject;
    const repo = str(pfs.repo);
    if (!repo) throw invalidArgument(`${field}.pfs.repo is required`);
    const glob = str(pfs.glob);
    if (!glob) throw invalidArgument(`${field}.pfs.glob is required`);
    return {
      kind: 'pfs',
      project: str(pfs.project) || '',
      name: str(pfs.name) || repo,
      repo,
      branch: str(pfs.branch) || 'master',
      commit: str(pfs.commit),
      glob,
      joinOn: str(pfs.joinOn),
      outerJoin: bool(pfs.outerJoin),
      groupBy: str(pfs.groupBy),
      lazy: bool(pfs.lazy),
      emptyFiles: bool(pfs.emptyFiles),
    };
  }
  if (kind === 'cron') {
    const cron = value.cron as WireObject;
    const name = str(cron.name);
    if (!name) throw invalidArgument(`${field}.cron.name is required`);
    if (!str(cron.spec)) throw invalidArgument(`${field}.cron.spec is required`);
    return {
      kind: 'cron',
      name,
      project: str(cron.project),
      repo: str(cron.repo) || `${pipelineName}_${name}`,
      spec: str(cron.spec),
      overwrite: bool(cron.overwrite),
    };
  }
  const children = value[kind];
  if (!Array.isArray(children) || children.length === 0)
    throw invalidArgument(`${field}.${kind} must be a non-empty list of inputs`);
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

/** The typed view of an effective spec; throws INVALID_ARGUMENT on what cannot run. */
export function readPipelineSpec(spec: WireObject): PipelineSpec {
  const pipeline = isPlainObject(spec.pipeline) ? spec.pipeline : {};
  const name = str(pipeline.name);
  if (!name) throw invalidArgument('pipeline.name is required');
  validateName('pipeline', name);
  const project = specProject(spec);
  const transform = isPlainObject(spec.transform) ? spec.transform : {};
  const cmd = strList(transform.cmd);
  if (cmd.length === 0) throw invalidArgument('transform.cmd is required');
  if (spec.input === undefined || spec.input === null)
    throw invalidArgument('input is required: the embedded platform runs transform pipelines');
  const input = withProjects(readInput(spec.input, 'input', name), project);
  const names = inputLeaves(input).map((leaf) => leaf.name);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate)
    throw invalidArgument(`two inputs are named ${duplicate}: give them distinct names`);
  if (names.includes('out')) throw invalidArgument('no input may be named "out"');
  const secrets = (Array.isArray(transform.secrets) ? transform.secrets : []).map((s, i) => {
    const secret = isPlainObject(s) ? s : {};
    if (!str(secret.name)) throw invalidArgument(`transform.secrets[${i}].name is required`);
    return { name: str(secret.name), key: str(secret.key), envVar: str(secret.envVar) };
  });
  const env = isPlainObject(transform.env) ? transform.env : {};
  const parallelismSpec = isPlainObject(spec.parallelismSpec) ? spec.parallelismSpec : {};
  const datumTries = readInt(spec.datumTries, 'datumTries');
  return {
    project,
    name,
    description: str(spec.description),
    transform: {
      image: str(transform.image),
      cmd,
      errCmd: strList(transform.errCmd),
      env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])),
      secrets,
      stdin: strList(transform.stdin),
      errStdin: strList(transform.errStdin),
      acceptReturnCode: (Array.isArray(transform.acceptReturnCode)
        ? transform.acceptReturnCode
        : []
      ).map((c, i) => readInt(c, `transform.acceptReturnCode[${i}]`)),
      workingDir: str(transform.workingDir),
    },
    input,
    parallelism: Math.max(1, readInt(parallelismSpec.constant, 'parallelismSpec.constant') || 1),
    datumTries: datumTries > 0 ? datumTries : 3,
    datumTimeoutMs: readDuration(spec.datumTimeout, 'datumTimeout'),
    jobTimeoutMs: readDuration(spec.jobTimeout, 'jobTimeout'),
    salt: str(spec.salt),
    autoscaling: bool(spec.autoscaling),
    outputBranch: str(spec.outputBranch) || 'master',
  };
}
