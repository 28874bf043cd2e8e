import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  constants,
  copyFileSync,
  createReadStream,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import type { OutputFile } from '../../pps-store.ts';
import type { PrepareSpec, SlotFolder } from './protocol.ts';

/**
 * A datum's files in the launcher: its inputs copied into its slot folder before it runs, its
 * outputs hashed and staged after it succeeded, and the slot emptied for the next datum.
 * Making and removing folders costs more than running a small process, so the datums of one job
 * reuse a slot folder one after another (and a sandbox binds its folders for the whole job).
 * Small files are copied, read and renamed with synchronous calls (cheaper than a thread-pool
 * round trip), over a spare file of an earlier datum when there is one; large ones
 * asynchronously. In a sandbox, which binds the inputs read-only, an input is a hard link to
 * its blob instead (no bytes copied, no inode made).
 */

/** Files up to this size are read whole to hash them; bigger ones are streamed. */
const smallFile = 4 * 1024 * 1024;
/** Slot folders known to be empty and ready, by root: the token of the job run that made them. */
const readySlots = new Map<string, string>();
/** Stage folders made already. */
const stages = new Set<string>();
let trashCount = 0;
/**
 * Spare files by trash folder: input copies of earlier datums, overwritten in place to become a
 * later datum's input. A new file costs an inode, which ext4 allocates slowly after many
 * deletions; overwriting a spare one costs neither an inode nor new blocks.
 */
const spares = new Map<string, string[]>();
const maxSpares = 64;
/**
 * What `prepare` put in a slot whose process cannot write there (a sandbox binds the inputs
 * read-only and never shows the slot's own pfs folder), by root: the entries directly under an
 * input folder or the pfs folder, so emptying the slot needs no listing of those folders.
 */
interface Made {
  dir: string;
  name: string;
  /** A link to a blob (unlinked), a copied file (a spare after), or a folder. */
  kind: 'link' | 'file' | 'dir';
}
const madeBySlot = new Map<string, Map<string, Made>>();
/**
 * The files of a slot's datum that `emptyFiles` made empty, by slot pfs folder: their real path
 * → the blob holding their bytes (see PrepareSpec.emptied).
 */
const emptiedBySlot = new Map<string, Map<string, string>>();

/** Notes an entry `prepare` made at `full` (a path under the slot's pfs folder). */
function noteMade(slot: SlotFolder, made: Map<string, Made>, full: string, kind: Made['kind']) {
  const [first = '', second, ...deeper] = path.relative(slot.pfs, full).split(path.sep);
  if (first === '' || first === '..' || first === path.basename(slot.out)) return;
  const isInput = slot.inputs.some((dir) => path.basename(dir) === first);
  if (isInput && second === undefined) return; // the input folder itself
  const entry: Made = isInput
    ? {
        dir: path.join(slot.pfs, first),
        name: second as string,
        kind: deeper.length ? 'dir' : kind,
      }
    : { dir: slot.pfs, name: first, kind: second === undefined ? kind : 'dir' };
  const key = path.join(entry.dir, entry.name);
  if (!made.has(key) || entry.kind === 'dir') made.set(key, entry);
}
const copyBuffer = Buffer.allocUnsafe(64 * 1024);
const runsAsRoot = process.getuid?.() === 0;

/** Moves `full` into the slot's trash folder (a rename: far cheaper than deleting a file). */
function discard(slot: SlotFolder, full: string): string {
  const target = path.join(slot.trash, `${process.pid}-${++trashCount}`);
  renameSync(full, target);
  return target;
}

/** Whether a slot's folders are missing (first use) rather than only not known to be empty. */
function missing(dir: string): boolean {
  return statSync(dir, { throwIfNoEntry: false }) === undefined;
}

/**
 * Empties a slot not known to be empty (or makes it): its pfs and output folders stay (a sandbox
 * binds them), what they hold goes to the trash. Its input folders go too: a datum's inputs
 * appear only when the datum has files of them (an input of a union or a cross that is not part
 * of the datum is absent, as in pachd).
 */
function rebuildSlot(slot: SlotFolder): void {
  readySlots.delete(slot.root);
  madeBySlot.delete(slot.root);
  mkdirSync(slot.trash, { recursive: true });
  if (missing(slot.pfs)) {
    rmSync(slot.root, { recursive: true, force: true });
    mkdirSync(slot.pfs, { recursive: true });
  }
  const out = path.basename(slot.out);
  for (const name of readdirSync(slot.pfs))
    if (name !== out) discard(slot, path.join(slot.pfs, name));
  if (missing(slot.out)) mkdirSync(slot.out);
  else for (const name of readdirSync(slot.out)) discard(slot, path.join(slot.out, name));
  if (slot.outOwner !== undefined) chownSync(slot.out, slot.outOwner, slot.outOwner);
}

/** Removes the slot's input folders, emptied already (one missing was not part of the datum). */
function removeInputFolders(slot: SlotFolder): void {
  for (const dir of slot.inputs) {
    try {
      rmdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** Makes a slot ready for its first datum ahead of it (emptied, or made, unless it is ready). */
export function readySlot(slot: SlotFolder): void {
  if (readySlots.get(slot.root) === slot.token) return;
  rebuildSlot(slot);
  readySlots.set(slot.root, slot.token);
}

/**
 * Empties a slot after a successful datum so the next one finds only its own files (what it
 * held goes to the trash). Input files become spares.
 */
export function resetSlot(slot: SlotFolder, outEmpty: boolean): void {
  readySlots.delete(slot.root);
  let pool = spares.get(slot.trash);
  if (!pool) spares.set(slot.trash, (pool = []));
  const made = slot.linkInputs ? madeBySlot.get(slot.root) : undefined;
  madeBySlot.delete(slot.root);
  if (made) {
    // Only what prepare made is there (the process could not write there): no listing.
    for (const { dir, name, kind } of made.values()) {
      const full = path.join(dir, name);
      if (kind === 'link') unlinkSync(full);
      else {
        const moved = discard(slot, full);
        if (kind === 'file' && pool.length < maxSpares) pool.push(moved);
      }
    }
    if (!outEmpty)
      for (const name of readdirSync(slot.out)) discard(slot, path.join(slot.out, name));
    removeInputFolders(slot);
    readySlots.set(slot.root, slot.token);
    return;
  }
  for (const dir of slot.inputs) {
    if (missing(dir)) continue; // not part of the datum
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      // A link to a blob is only unlinked (it never becomes a spare: writing over it would
      // change the blob).
      if (slot.linkInputs && entry.isFile()) {
        unlinkSync(path.join(dir, entry.name));
        continue;
      }
      const moved = discard(slot, path.join(dir, entry.name));
      // (One that has another name by then is not overwritten: see overwrite.)
      if (entry.isFile() && pool.length < maxSpares) pool.push(moved);
    }
  }
  if (!outEmpty) for (const name of readdirSync(slot.out)) discard(slot, path.join(slot.out, name));
  removeInputFolders(slot);
  const out = path.basename(slot.out);
  for (const name of readdirSync(slot.pfs))
    if (name !== out) discard(slot, path.join(slot.pfs, name));
  readySlots.set(slot.root, slot.token);
}

/** The slot's next datum may not trust it: it is emptied before that datum's inputs arrive. */
export function distrustSlot(root: string): void {
  readySlots.delete(root);
  madeBySlot.delete(root);
}

/**
 * Writes the bytes of `src` over the spare file `dst` in place (then cuts off what is left of its
 * old bytes and gives it the mode of `src`): truncating it first would free its blocks and the
 * write allocate new ones, which costs more on ext4 than the copy itself. A file with another
 * name (a link a process made) must keep its bytes: it is not written.
 */
function overwrite(src: string, dst: string): void {
  const from = openSync(src, 'r');
  try {
    const to = openSync(dst, 'r+');
    try {
      const old = fstatSync(to);
      if (old.nlink !== 1 || !old.isFile()) throw new Error('not a spare file');
      let at = 0;
      for (;;) {
        const n = readSync(from, copyBuffer, 0, copyBuffer.length, at);
        for (let written = 0; written < n;)
          written += writeSync(to, copyBuffer, written, n - written, at + written);
        at += n;
        if (n < copyBuffer.length) break; // the end of the file
      }
      if (old.size > at) ftruncateSync(to, at);
      const mode = fstatSync(from).mode & 0o7777;
      if ((old.mode & 0o7777) !== mode) fchmodSync(to, mode);
    } finally {
      closeSync(to);
    }
  } finally {
    closeSync(from);
  }
}

/** Makes `dst` a hard link to the blob `src`; false where it cannot (another filesystem). */
function linked(src: string, dst: string): boolean {
  try {
    linkSync(src, dst);
    return true;
  } catch {
    return false;
  }
}

/** Copies a small file to `dst`, over a spare file of the slot's trash when there is one. */
function copySmall(src: string, dst: string, slot: SlotFolder | undefined): void {
  const spare = slot ? spares.get(slot.trash)?.pop() : undefined;
  if (spare) {
    try {
      renameSync(spare, dst);
    } catch {
      // gone with its job's folder: a new file then
      copyFileSync(src, dst);
      return;
    }
    try {
      overwrite(src, dst);
      return;
    } catch {
      // not writable (a process changed its mode) or linked: a new file then
      rmSync(dst, { force: true });
    }
  }
  copyFileSync(src, dst);
}

/**
 * Puts a datum's inputs in place: a slot not known to be empty (first use, a new token, or its
 * last process failed) is emptied first; then `dirs` are made, `copies` copied (reflinks where
 * the filesystem can) and `empties` created empty.
 */
export async function prepare(spec: PrepareSpec): Promise<void> {
  if (spec.slot && readySlots.get(spec.slot.root) !== spec.slot.token) rebuildSlot(spec.slot);
  if (spec.slot) readySlots.delete(spec.slot.root);
  // Kept for resetSlot only where the process cannot add to what it lists (see madeBySlot).
  const slot = spec.slot;
  const noted = slot?.linkInputs ? new Map<string, Made>() : undefined;
  if (slot) madeBySlot.delete(slot.root);
  const note = (full: string, kind: Made['kind']) => {
    if (slot && noted) noteMade(slot, noted, full, kind);
  };
  const made = new Set<string>(slot ? [slot.pfs, slot.out] : []);
  const ensureDir = (dir: string) => {
    if (made.has(dir)) return;
    mkdirSync(dir, { recursive: true });
    made.add(dir);
    note(dir, 'dir');
  };
  for (const dir of spec.dirs) ensureDir(dir);
  for (const [, dst] of spec.copies) ensureDir(path.dirname(dst));
  for (const file of spec.empties) ensureDir(path.dirname(file));
  for (const file of spec.empties) {
    writeFileSync(file, '');
    note(file, 'file');
  }
  const emptied = new Map<string, string>();
  for (const [file, blob] of spec.emptied ?? []) {
    ensureDir(path.dirname(file));
    writeFileSync(file, '');
    note(file, 'file');
    emptied.set(realpathSync(file), blob);
  }
  if (slot) {
    if (emptied.size > 0) emptiedBySlot.set(slot.pfs, emptied);
    else emptiedBySlot.delete(slot.pfs);
  }
  const large: Promise<void>[] = [];
  for (const [src, dst, size] of spec.copies) {
    if (slot?.linkInputs && linked(src, dst)) {
      note(dst, 'link');
      continue;
    }
    note(dst, 'file');
    if (size > smallFile) large.push(fsp.copyFile(src, dst, constants.COPYFILE_FICLONE));
    else copySmall(src, dst, slot);
  }
  await Promise.all(large);
  if (slot && noted) madeBySlot.set(slot.root, noted);
}

/** A file's sha256 and size: read whole when small, else streamed. */
async function hashFile(file: string): Promise<{ hash: string; size: number }> {
  const hasher = createHash('sha256');
  const fd = openSync(file, 'r');
  let size: number;
  try {
    size = fstatSync(fd).size;
    if (size <= smallFile) {
      const bytes = Buffer.allocUnsafe(size);
      let read = 0;
      while (read < size) {
        const n = readSync(fd, bytes, read, size - read, read);
        if (n === 0) break;
        read += n;
      }
      hasher.update(bytes.subarray(0, read));
      size = read;
    }
  } finally {
    closeSync(fd);
  }
  if (size > smallFile) {
    size = 0;
    for await (const chunk of createReadStream(file)) {
      hasher.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
  }
  return { hash: hasher.digest('hex'), size };
}

/**
 * Where a link a sandboxed process made points on the host: its target read as the sandbox sees
 * it (`/pfs/…` is the slot's `pfs` folder, `/tmp/…` the slot's tmp folder), which must lie inside
 * one of them — never a file of the host the process could not see.
 */
function linkInsideSlot(link: string, pfs: string, tmp: string | undefined): string {
  const target = readlinkSync(link);
  const under = (root: string) =>
    target === root || target.startsWith(root + '/') ? target.slice(root.length) : null;
  const inPfs = under('/pfs');
  const inTmp = tmp ? under('/tmp') : null;
  const mapped =
    inPfs !== null
      ? path.join(pfs, inPfs)
      : inTmp !== null
        ? path.join(tmp as string, inTmp)
        : path.resolve(path.dirname(link), target);
  const real = realpathSync(mapped);
  const roots = [pfs, ...(tmp ? [tmp] : [])].map((root) => realpathSync(root));
  if (!roots.some((root) => real === root || real.startsWith(root + path.sep)))
    throw new Error(`output ${path.basename(link)} is a link to outside /pfs and /tmp`);
  return real;
}

/**
 * Hashes the outputs under `spec.out` and moves each to `spec.stage`/<hash> (a link to a file
 * becomes a copy of it; from a sandbox, only a link to a file under its /pfs).
 * `outEmpty`: whether every entry was a file, now moved.
 */
export async function collect(spec: {
  out: string;
  stage: string;
  /** The slot's pfs folder, when a sandbox made the outputs. */
  sandboxPfs?: string;
  /** The folder the sandbox sees as /tmp, when it has one. */
  sandboxTmp?: string;
}): Promise<{ outputs: OutputFile[]; outEmpty: boolean }> {
  if (!stages.has(spec.stage)) {
    mkdirSync(spec.stage, { recursive: true });
    stages.add(spec.stage);
  }
  const outputs: OutputFile[] = [];
  let outEmpty = true;
  const emptied = emptiedBySlot.get(path.dirname(spec.out));
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const names = readdirSync(dir, { withFileTypes: true });
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of names) {
      const full = path.join(dir, entry.name);
      const resolved =
        entry.isSymbolicLink() && spec.sandboxPfs !== undefined
          ? linkInsideSlot(full, spec.sandboxPfs, spec.sandboxTmp)
          : full;
      const info = entry.isSymbolicLink() ? statSync(resolved) : null;
      if (entry.isDirectory() || info?.isDirectory()) {
        outEmpty = false;
        await walk(resolved, `${prefix}/${entry.name}`);
      } else if (entry.isFile() || info?.isFile()) {
        // A link to a file becomes a copy of it: the staged file is what lands in the store
        // (a link to an input `emptyFiles` made empty: a copy of the input's bytes).
        // (A file of a linked input folder is an input, emptied or not.)
        const bytes = emptied ? emptied.get(realpathSync(resolved)) : undefined;
        if (info || bytes) {
          await fsp.copyFile(bytes ?? resolved, `${full}.ivory-link`);
          renameSync(`${full}.ivory-link`, full);
        }
        // A sandboxed process's file becomes the server's, read-only to others, before it is
        // hashed (it cannot be changed after).
        if (spec.sandboxPfs !== undefined) {
          if (runsAsRoot) chownSync(full, 0, 0);
          chmodSync(full, 0o644);
        }
        const { hash, size } = await hashFile(full);
        renameSync(full, path.join(spec.stage, hash));
        outputs.push({ path: `${prefix}/${entry.name}`, hash, sizeBytes: size });
      } else outEmpty = false;
    }
  };
  await walk(spec.out, '');
  return { outputs, outEmpty };
}

/** A job ended: its folders are forgotten. */
export function forgetFolders(prefix: string): void {
  const under = (dir: string) => dir === prefix || dir.startsWith(prefix + path.sep);
  for (const root of readySlots.keys()) if (under(root)) readySlots.delete(root);
  for (const root of madeBySlot.keys()) if (under(root)) madeBySlot.delete(root);
  for (const pfs of emptiedBySlot.keys()) if (under(pfs)) emptiedBySlot.delete(pfs);
  for (const stage of stages) if (under(stage)) stages.delete(stage);
  for (const trash of spares.keys()) if (under(trash)) spares.delete(trash);
}
