import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUTH_ENV, readAuthConfig, type AuthConfig } from './auth/index.ts';
import { parseLimitSet } from './platform/pps/resources.ts';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  webDist: string;
  releaseVersion: string;
  disableTelemetry: boolean;
  /** Sign-in settings (IVORY_OIDC_*); authentication is on when an issuer is set. */
  auth: AuthConfig;
  seed: boolean;
  /** Seed the EDA demo project (with `seed`, on first start); IVORY_SEED_EDA=false skips it. */
  seedEda: boolean;
  /**
   * Where the EDA flow's stages and /setup look for iverilog, vvp, verilator and sta instead of
   * PATH (IVORY_EDA_TOOLS_PATH, ':'-separated folders); '' = PATH.
   */
  edaToolsPath?: string;
  logLevel: string;
  /** IVORY_LOG_FORMAT: `auto` (pretty on a terminal, JSON otherwise), `pretty` or `json`. */
  logFormat?: 'auto' | 'pretty' | 'json';
  uploadTtlMs: number;
  /** TEST ONLY: kill the process with SIGKILL at a named point (see upload/fault-injection.ts). */
  faultKillAt: string;
  /** Cluster mode: a Pachyderm cluster's HTTP gateway (IVORY_PACHD_ADDRESS); unset = embedded. */
  pachdAddress?: string;
  /**
   * Optional browser settings passed through to the page's runtime settings under their
   * REACT_APP_ names (analytics and error-report destinations, terminal connection details).
   */
  browserSettings: Record<string, string>;
  /** Absolute folders pfs Egress may write into (IVORY_EGRESS_ROOTS, comma-separated). */
  egressRoots?: string[];
  /** Cluster admins' emails (IVORY_ADMINS, comma-separated), with sign-in on. */
  admins?: string[];
  /**
   * The gRPC listener (IVORY_GRPC_PORT, default 1650; 0 turns it off), on HOST, embedded mode
   * only. Absent = off; port 0 here = any free port. `optional`: the default port, so a port
   * already taken (another server on this machine) leaves gRPC off with a warning instead of
   * failing the start.
   */
  grpc?: { port: number; optional: boolean } | null;
}

/** Every environment variable the server reads (here and in auth/config.ts). */
export const SERVER_ENV_NAMES = [
  'PORT',
  'HOST',
  'IVORY_DATA_DIR',
  'IVORY_WEB_DIST',
  'IVORY_RELEASE_VERSION',
  'IVORY_DISABLE_TELEMETRY',
  'IVORY_SEED',
  'IVORY_SEED_EDA',
  'IVORY_EDA_TOOLS_PATH',
  'IVORY_LOG_LEVEL',
  'IVORY_LOG_FORMAT',
  'IVORY_UPLOAD_TTL_MS',
  'IVORY_FAULT_KILL_AT',
  'IVORY_PACHD_ADDRESS',
  'IVORY_RUDDERSTACK_WRITE_KEY',
  'IVORY_RUDDERSTACK_DATA_PLANE_URL',
  'IVORY_RUDDERSTACK_CONFIG_URL',
  'IVORY_RUDDERSTACK_SOURCE_CONFIG',
  'IVORY_SENTRY_DSN',
  'IVORY_PACHCTL_ADDRESS',
  'IVORY_CONTEXT_NAME',
  'IVORY_CLUSTER_NAME',
  'IVORY_CLOUD_ZONE',
  'IVORY_CLOUD_PROJECT_ID',
  'IVORY_EGRESS_ROOTS',
  'IVORY_ADMINS',
  'IVORY_GRPC_PORT',
  'IVORY_DATUM_LIMITS',
  'IVORY_DATUM_LIMITS_MAX',
  ...Object.values(AUTH_ENV),
] as const;

/** Settings for tests only: a deployment must never set them. */
export const TEST_ONLY_ENV_NAMES = ['IVORY_FAULT_KILL_AT'] as const;

function pachdAddress(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new Error(`IVORY_PACHD_ADDRESS must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`IVORY_PACHD_ADDRESS must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
  return url.href.replace(/\/+$/, '');
}

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(serverRoot, '..');

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(serverRoot, 'package.json'), 'utf8')) as {
    version?: string;
  };
  return pkg.version ?? '0.0.0';
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new Error(`${name} must be a non-negative integer`);
  return parsed;
}

/** Reads the server configuration from environment variables. */
function logFormat(value: string | undefined): 'auto' | 'pretty' | 'json' {
  if (!value) return 'auto';
  if (value === 'auto' || value === 'pretty' || value === 'json') return value;
  throw new Error(`IVORY_LOG_FORMAT must be auto, pretty or json (got ${value})`);
}

/** A setting that must hold JSON text (checked at start, passed on as text). */
function jsonText(value: string | undefined, name: string): string | undefined {
  if (!value?.trim()) return undefined;
  try {
    JSON.parse(value);
  } catch (error) {
    throw new Error(`${name} must be JSON: ${(error as Error).message}`);
  }
  return value;
}

export const DEFAULT_GRPC_PORT = 1650;

function grpcListener(value: string | undefined): ServerConfig['grpc'] {
  const port = integer(value, DEFAULT_GRPC_PORT, 'IVORY_GRPC_PORT');
  if (port > 65535) throw new Error('IVORY_GRPC_PORT must be a port number (0 turns gRPC off)');
  return port === 0 ? null : { port, optional: value === undefined || value === '' };
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  // Datum limits are read when each job starts (pps/resources.ts); a bad setting fails the start.
  parseLimitSet(env.IVORY_DATUM_LIMITS ?? '', 'IVORY_DATUM_LIMITS');
  parseLimitSet(env.IVORY_DATUM_LIMITS_MAX ?? '', 'IVORY_DATUM_LIMITS_MAX');
  return {
    port: integer(env.PORT, 4000, 'PORT'),
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.IVORY_DATA_DIR || '.ivory-data'),
    webDist: path.resolve(env.IVORY_WEB_DIST || path.join(repoRoot, 'web', 'dist')),
    releaseVersion: env.IVORY_RELEASE_VERSION || packageVersion(),
    disableTelemetry: flag(env.IVORY_DISABLE_TELEMETRY, false),
    auth: readAuthConfig(env),
    seed: flag(env.IVORY_SEED, true),
    seedEda: flag(env.IVORY_SEED_EDA, true),
    edaToolsPath: env.IVORY_EDA_TOOLS_PATH ?? '',
    logLevel: env.IVORY_LOG_LEVEL || 'info',
    logFormat: logFormat(env.IVORY_LOG_FORMAT),
    uploadTtlMs: integer(env.IVORY_UPLOAD_TTL_MS, 24 * 60 * 60 * 1000, 'IVORY_UPLOAD_TTL_MS'),
    faultKillAt: env.IVORY_FAULT_KILL_AT ?? '',
    pachdAddress: pachdAddress(env.IVORY_PACHD_ADDRESS),
    egressRoots: list(env.IVORY_EGRESS_ROOTS).map((root) => {
      if (!path.isAbsolute(root))
        throw new Error(
          `IVORY_EGRESS_ROOTS must list absolute folders, got ${JSON.stringify(root)}`,
        );
      return path.resolve(root);
    }),
    admins: list(env.IVORY_ADMINS).map((email) => email.toLowerCase()),
    grpc: grpcListener(env.IVORY_GRPC_PORT),
    browserSettings: withoutEmpty({
      REACT_APP_RUDDERSTACK_WRITE_KEY: env.IVORY_RUDDERSTACK_WRITE_KEY,
      REACT_APP_RUDDERSTACK_DATA_PLANE_URL: env.IVORY_RUDDERSTACK_DATA_PLANE_URL,
      REACT_APP_RUDDERSTACK_CONFIG_URL: env.IVORY_RUDDERSTACK_CONFIG_URL,
      REACT_APP_RUDDERSTACK_SOURCE_CONFIG: jsonText(
        env.IVORY_RUDDERSTACK_SOURCE_CONFIG,
        'IVORY_RUDDERSTACK_SOURCE_CONFIG',
      ),
      REACT_APP_SENTRY_DSN: env.IVORY_SENTRY_DSN,
      REACT_APP_PACHD_ADDRESS: env.IVORY_PACHCTL_ADDRESS,
      REACT_APP_CONTEXT_NAME: env.IVORY_CONTEXT_NAME,
      REACT_APP_CLUSTER_NAME: env.IVORY_CLUSTER_NAME,
      REACT_APP_CLOUD_ZONE: env.IVORY_CLOUD_ZONE,
      REACT_APP_CLOUD_PROJECT_ID: env.IVORY_CLOUD_PROJECT_ID,
    }),
  };
}

function withoutEmpty(settings: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(settings).flatMap(([name, value]) =>
      value?.trim() ? [[name, value.trim()]] : [],
    ),
  );
}

/** A comma-separated setting's non-empty, trimmed items. */
function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
