import path from 'node:path';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { DatumFile } from '../datums.ts';
import type { LaunchResult, PrepareSpec, SlotFolder } from './launcher.ts';

/** A datum's folder with a /pfs-like layout (inputs in, outputs out), and its process's result. */

export interface DatumDirs {
  root: string;
  pfs: string;
  out: string;
  /** What emptying the folder between datums moves out of the way (shared by the job). */
  trash: string;
}

/** The folder the job's `index`th datum worker reuses for one datum after another. */
export function slotDirs(jobDir: string, index: number): DatumDirs {
  const root = path.join(jobDir, `slot-${index}`);
  const pfs = path.join(root, 'pfs');
  return { root, pfs, out: path.join(pfs, 'out'), trash: path.join(jobDir, 'trash') };
}

/** Where successful datums' outputs wait, named by their sha256, until the job ends. */
export function stageDir(jobDir: string): string {
  return path.join(jobDir, 'staged');
}

/** A worker slot's folder as the launcher prepares it (see SlotFolder). */
export function slotFolder(dirs: DatumDirs, inputNames: string[], token: string): SlotFolder {
  return { ...dirs, inputs: inputNames.map((name) => path.join(dirs.pfs, name)), token };
}

/**
 * What the launcher does before a datum's process starts: its input files appear under
 * <root>/pfs/<input>/<path>, copied from the blob store (reflinks where the filesystem can, so
 * no bytes are copied; never hard links, as a process that writes to its input must not change
 * the stored blob — unless the slot says `linkInputs`), in a slot folder the launcher empties
 * between datums.
 */
export function prepareSpec(
  blobs: BlobStore,
  slot: SlotFolder,
  files: DatumFile[],
): { spec: PrepareSpec; bytes: number } {
  const spec: PrepareSpec = { slot, dirs: [], copies: [], empties: [], emptied: [] };
  let bytes = 0;
  for (const file of files) {
    if (file.s3) continue; // read over S3 in pachd: nothing is copied
    const target = path.join(slot.pfs, file.input, file.path);
    if (file.sizeBytes === 0) spec.empties.push(target);
    else if (file.emptyFile) spec.emptied?.push([target, blobs.pathOf(file.hash)]);
    else {
      spec.copies.push([blobs.pathOf(file.hash), target, file.sizeBytes]);
      bytes += file.sizeBytes;
    }
  }
  return { spec, bytes };
}

/** Replaces "/pfs" at the start of a word (`/pfs/in/*`, `>/pfs/out/x`, `=/pfs/…`) with `pfsRoot`. */
export function rewritePfs(text: string, pfsRoot: string): string {
  return text.replace(
    /(^|[\s"'=(:,>|<;`])\/pfs(?=\/|$|[\s"';)`])/g,
    (_, before: string) => before + pfsRoot,
  );
}

export interface ProcessResult {
  ok: boolean;
  /** Why it failed ("exit code 1", "timed out after 5s", "cannot start: …"). */
  reason: string;
}

/** A launcher result read against the spec: success (exit 0 or an accepted code) or why not. */
export function processResult(
  result: LaunchResult,
  command: string,
  acceptReturnCode: number[],
  timeoutMs: number,
): ProcessResult {
  if (result.error) return { ok: false, reason: `cannot start ${command}: ${result.error}` };
  // A limit broken fails it whatever its exit (a fork bomb's refused forks may go unnoticed).
  if (result.limit) return { ok: false, reason: result.limit };
  if (result.killed) return { ok: false, reason: 'killed' };
  if (result.timedOut) return { ok: false, reason: `timed out after ${timeoutMs / 1000}s` };
  if (result.signal) return { ok: false, reason: `killed by ${result.signal}` };
  if (result.code === 0 || (result.code !== null && acceptReturnCode.includes(result.code)))
    return { ok: true, reason: '' };
  // The shell that starts processes answers 127 (126) when the command is missing (not runnable).
  if (result.code === 127) return { ok: false, reason: `exit code 127 (is ${command} installed?)` };
  if (result.code === 126) return { ok: false, reason: `exit code 126 (cannot run ${command})` };
  return { ok: false, reason: `exit code ${result.code}` };
}
