import os from 'node:os';
import { invalidArgument } from '../../errors.ts';

/**
 * What a datum's process may use, from Pachyderm's `resourceLimits` / `resourceRequests`
 * (memory, cpu, disk) with the server's defaults and maxima (IVORY_DATUM_LIMITS,
 * IVORY_DATUM_LIMITS_MAX), and a process count (pids) from the server's settings alone.
 * The launcher applies them (launcher/cgroups.ts, sandbox.ts).
 */
export interface DatumLimits {
  /** Memory (RSS, page cache and /tmp included) in bytes; 0 = no limit. */
  memoryBytes: number;
  /** CPUs (1.5 = one and a half cores' time); 0 = no limit. */
  cpu: number;
  /** Processes and threads at once; 0 = no limit. */
  pids: number;
  /** The size of /tmp and of any one file written; 0 = no limit. */
  diskBytes: number;
  /** Requests: memory kept for it under pressure, and its share of the CPUs (0 = unset). */
  memoryRequestBytes: number;
  cpuRequest: number;
}

/** A pipeline's resource spec as written: ResourceSpec {cpu, memory, disk} (gpu ignored). */
export interface ResourceSpecText {
  cpu?: number;
  memory?: string;
  disk?: string;
}

export const LIMITS_ENV = 'IVORY_DATUM_LIMITS';
export const LIMITS_MAX_ENV = 'IVORY_DATUM_LIMITS_MAX';

const units: Record<string, number> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** A Kubernetes quantity ("512Mi", "1G", "1.5", "500m", "129e6") as a number; throws 3. */
export function parseQuantity(text: string, what: string): number {
  const match = /^\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE]([+-]?[0-9]+))?([a-zA-Z]*)\s*$/.exec(
    text,
  );
  const unit = match?.[3] ?? '';
  if (!match || !(unit in units))
    throw invalidArgument(
      `${what} ${JSON.stringify(text)} is not a quantity like 512Mi, 2G or 1.5`,
    );
  const value = Number(match[1]) * 10 ** Number(match[2] ?? 0) * (units[unit] as number);
  if (!Number.isFinite(value) || value < 0)
    throw invalidArgument(`${what} ${text} is out of range`);
  return value;
}

/** Bytes as people read them: 1.5 GiB, 256 MiB, 4 KiB. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['TiB', 2 ** 40],
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const)
    if (bytes >= size) return `${Number((bytes / size).toFixed(2))} ${unit}`;
  return `${bytes} bytes`;
}

/** A spec's resources as the engine keeps them (checked by checkResources). */
export interface PipelineResources {
  limits?: ResourceSpecText;
  requests?: ResourceSpecText;
}

/**
 * A spec's resources read from its decoded ResourceSpecs; checked against the server's settings
 * when `strict` (a new spec or version: 3 when over the maximum), else only that they can be read
 * (a stored spec: at run its limits are clamped to the maximum of the day).
 */
export function checkResources(
  limits: ResourceSpecText | undefined,
  requests: ResourceSpecText | undefined,
  strict: boolean,
): PipelineResources {
  const text = (spec: ResourceSpecText | undefined): ResourceSpecText | undefined =>
    spec && (spec.cpu || spec.memory || spec.disk)
      ? {
          ...(spec.cpu ? { cpu: spec.cpu } : {}),
          ...(spec.memory ? { memory: spec.memory } : {}),
          ...(spec.disk ? { disk: spec.disk } : {}),
        }
      : undefined;
  const resources = { limits: text(limits), requests: text(requests) };
  datumLimits(resources.limits, resources.requests, { clamp: !strict });
  return resources;
}

type LimitName = 'memory' | 'cpu' | 'pids' | 'disk';
type LimitSet = Record<LimitName, number>;

/** `memory=2Gi,cpu=2,pids=1024,disk=1Gi` (any of them; `0` = no limit). Throws naming `setting`. */
export function parseLimitSet(text: string, setting: string): Partial<LimitSet> {
  const out: Partial<LimitSet> = {};
  for (const item of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [name = '', value = ''] = item.split('=').map((part) => part.trim());
    if (!['memory', 'cpu', 'pids', 'disk'].includes(name))
      throw new Error(`${setting}: ${JSON.stringify(name)} is not memory, cpu, pids or disk`);
    try {
      const parsed = parseQuantity(value, `${setting} ${name}`);
      out[name as LimitName] = name === 'pids' ? Math.floor(parsed) : parsed;
    } catch (error) {
      throw new Error((error as Error).message);
    }
  }
  return out;
}

/** Each datum's limits unless its pipeline sets its own. */
export const DEFAULT_LIMITS: LimitSet = {
  memory: 2 * 2 ** 30,
  cpu: 0,
  pids: 1024,
  disk: 2 ** 30,
};

/** The most a pipeline may ask for: by default, the machine. */
function machineMaxima(): LimitSet {
  return { memory: os.totalmem(), cpu: os.cpus().length, pids: 8192, disk: 64 * 2 ** 30 };
}

let known: { key: string; defaults: LimitSet; maxima: LimitSet } | null = null;

/** The server's defaults and maxima, read from the environment (checked at start: config.ts). */
export function configuredLimits(env: NodeJS.ProcessEnv = process.env): {
  defaults: LimitSet;
  maxima: LimitSet;
} {
  const key = `${env[LIMITS_ENV] ?? ''}\0${env[LIMITS_MAX_ENV] ?? ''}`;
  if (known?.key === key) return known;
  const defaults = { ...DEFAULT_LIMITS, ...parseLimitSet(env[LIMITS_ENV] ?? '', LIMITS_ENV) };
  const maxima = {
    ...machineMaxima(),
    ...parseLimitSet(env[LIMITS_MAX_ENV] ?? '', LIMITS_MAX_ENV),
  };
  for (const name of ['memory', 'cpu', 'pids', 'disk'] as const)
    if (maxima[name] > 0 && (defaults[name] === 0 || defaults[name] > maxima[name]))
      defaults[name] = maxima[name];
  known = { key, defaults, maxima };
  return known;
}

const describe = (name: LimitName, value: number) =>
  name === 'memory' || name === 'disk'
    ? formatBytes(value)
    : name === 'cpu'
      ? `${value} CPU`
      : `${value}`;

/**
 * A pipeline's limits: its `resourceLimits` over the server's defaults (a limit it does not set
 * is the default); its `resourceRequests` only weigh (memory kept for it under pressure, its
 * share of the CPUs when they are busy). Throws 3 naming the field for a bad quantity, a limit
 * over the server's maximum or a request over its limit.
 */
export function datumLimits(
  limits: ResourceSpecText | undefined,
  requests: ResourceSpecText | undefined,
  options: { clamp?: boolean; env?: NodeJS.ProcessEnv } = {},
): DatumLimits {
  const env = options.env ?? process.env;
  const { defaults, maxima } = configuredLimits(env);
  const read = (spec: ResourceSpecText | undefined, field: string): Partial<LimitSet> => {
    const out: Partial<LimitSet> = {};
    if (spec?.memory) out.memory = parseQuantity(spec.memory, `${field}.memory`);
    if (spec?.disk) out.disk = parseQuantity(spec.disk, `${field}.disk`);
    if (spec?.cpu) {
      if (!Number.isFinite(spec.cpu) || spec.cpu < 0)
        throw invalidArgument(`${field}.cpu must be a positive number of CPUs`);
      out.cpu = spec.cpu;
    }
    return out;
  };
  const asked = read(limits, 'resourceLimits');
  const wanted = read(requests, 'resourceRequests');
  const effective: LimitSet = { ...defaults, ...asked };
  for (const name of ['memory', 'cpu', 'disk'] as const) {
    const value = asked[name];
    if (value !== undefined && maxima[name] > 0 && value > maxima[name] && options.clamp)
      effective[name] = maxima[name];
    else if (value !== undefined && maxima[name] > 0 && value > maxima[name])
      throw invalidArgument(
        `resourceLimits.${name} ${describe(name, value)} is over the server's maximum ` +
          `${describe(name, maxima[name])} (${LIMITS_MAX_ENV})`,
      );
    const request = wanted[name];
    if (request !== undefined && effective[name] > 0 && request > effective[name])
      throw invalidArgument(
        `resourceRequests.${name} ${describe(name, request)} is over its limit ${describe(name, effective[name])}`,
      );
  }
  return {
    memoryBytes: Math.floor(effective.memory),
    cpu: effective.cpu,
    pids: Math.floor(effective.pids),
    diskBytes: Math.floor(effective.disk),
    memoryRequestBytes: Math.floor(wanted.memory ?? 0),
    cpuRequest: wanted.cpu ?? 0,
  };
}
