import path from 'node:path';
import type { CommitRow } from '../../pfs/rows.ts';
import type { DatumFile } from '../datums.ts';
import type { JobRow } from '../pps-store.ts';
import type { SecretStore } from '../secrets.ts';
import type { PipelineSpec } from '../spec.ts';
import type { DatumDirs } from './worker.ts';

/** The environment of a job's datum processes: the job's part, then each worker slot's. */

/** Environment variables passed through from the server to datum processes. */
const passThroughEnv = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'USER', 'SHELL'];

/**
 * The environment every datum of the job shares (secrets are opened once per job). Throws when
 * a secret it names has no such key.
 */
export function jobEnv(
  secrets: SecretStore,
  spec: PipelineSpec,
  job: JobRow,
  output: CommitRow,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of passThroughEnv) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  Object.assign(env, spec.transform.env);
  for (const secret of spec.transform.secrets) {
    if (!secret.envVar) continue;
    const values = secrets.open(secret.name);
    const value = values[secret.key];
    if (value === undefined) throw new Error(`secret ${secret.name} has no key ${secret.key}`);
    env[secret.envVar] = value;
  }
  Object.assign(env, {
    PACH_JOB_ID: job.id,
    PACH_OUTPUT_COMMIT_ID: output.id,
    PPS_PROJECT_NAME: job.project,
    PPS_PIPELINE_NAME: job.pipeline,
  });
  return env;
}

/**
 * A slot's datums' environment but PACH_DATUM_ID: /pfs is the real /pfs in a sandbox, else the
 * slot's folder.
 */
export function slotEnv(
  base: Record<string, string>,
  inputNames: string[],
  sandboxed: boolean,
  dirs: DatumDirs,
): Record<string, string> {
  const pfs = sandboxed ? '/pfs' : dirs.pfs;
  const env: Record<string, string> = {
    ...base,
    ...(sandboxed ? { HOME: '/tmp', TMPDIR: '/tmp' } : {}),
    PFS: pfs,
    PFS_OUT: path.join(pfs, 'out'),
  };
  for (const name of inputNames)
    env[`PFS_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`] = path.join(pfs, name);
  // (Set for each datum: never one of the job's own variables.)
  delete env.PACH_DATUM_ID;
  return env;
}

/**
 * One datum's own variables, as pachd sets them: PACH_DATUM_ID; for each of its inputs,
 * `<input>` (the path its glob matched, under /pfs), `<input>_COMMIT` (the input commit's ID) and
 * `PACH_DATUM_<input>_JOIN_ON` / `_GROUP_BY` (its join and group keys, when it has them).
 */
export function datumEnv(
  id: string,
  files: DatumFile[],
  pfsRoot: string,
  commitId: (rowid: number) => string,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const file of files) {
    env[file.input] = path
      .join(pfsRoot, file.input, file.match ?? file.path)
      .replace(/(.)\/$/, '$1');
    env[`${file.input}_COMMIT`] = commitId(file.commitRowid);
    if (file.joinOn) env[`PACH_DATUM_${file.input}_JOIN_ON`] = file.joinOn;
    if (file.groupBy) env[`PACH_DATUM_${file.input}_GROUP_BY`] = file.groupBy;
  }
  env.PACH_DATUM_ID = id;
  return env;
}
