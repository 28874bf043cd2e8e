import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BlobStore } from '../storage/blob-store.ts';
import type { DatumFile } from './datums.ts';
import type { OutputFile } from './pps-store.ts';

/** Runs one datum's process on the host, in its own folder with a /pfs-like layout. */

export interface DatumDirs {
  root: string;
  pfs: string;
  out: string;
}

export function datumDirs(jobDir: string, datumId: string): DatumDirs {
  const root = path.join(jobDir, datumId);
  const pfs = path.join(root, 'pfs');
  return { root, pfs, out: path.join(pfs, 'out') };
}

/** Copies the datum's input files to <root>/pfs/<input>/<path>; returns bytes copied. */
export async function materialise(
  blobs: BlobStore,
  dirs: DatumDirs,
  files: DatumFile[],
  inputNames: string[],
): Promise<number> {
  await rm(dirs.root, { recursive: true, force: true });
  await mkdir(dirs.out, { recursive: true });
  for (const name of inputNames) await mkdir(path.join(dirs.pfs, name), { recursive: true });
  let bytes = 0;
  const made = new Set<string>();
  for (const file of files) {
    const target = path.join(dirs.pfs, file.input, file.path);
    const dir = path.dirname(target);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true });
      made.add(dir);
    }
    if (file.emptyFile || file.sizeBytes === 0) {
      await writeFile(target, '');
    } else {
      await copyFile(blobs.pathOf(file.hash), target);
      bytes += file.sizeBytes;
    }
  }
  return bytes;
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

export interface RunOptions {
  cmd: string[];
  stdin: string[];
  env: Record<string, string>;
  cwd: string;
  acceptReturnCode: number[];
  timeoutMs: number;
  signal: AbortSignal;
  onLine: (line: string) => void;
}

/** Spawns the command, feeds stdin, forwards each output line; resolves when it exits. */
export function runProcess(options: RunOptions): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const [command, ...args] = options.cmd as [string, ...string[]];
    let settled = false;
    let timedOut = false;
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const finish = (result: ProcessResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const onAbort = () => kill();
    options.signal.addEventListener('abort', onAbort);
    if (options.signal.aborted) kill();
    const timer =
      options.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            kill();
          }, options.timeoutMs)
        : undefined;
    const forward = (stream: NodeJS.ReadableStream) => {
      let pending = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        pending += chunk;
        let newline = pending.indexOf('\n');
        while (newline !== -1) {
          options.onLine(pending.slice(0, newline));
          pending = pending.slice(newline + 1);
          newline = pending.indexOf('\n');
        }
      });
      stream.on('end', () => {
        if (pending) options.onLine(pending);
        pending = '';
      });
    };
    forward(child.stdout);
    forward(child.stderr);
    child.stdin.on('error', () => undefined);
    if (options.stdin.length > 0) child.stdin.end(options.stdin.join('\n') + '\n');
    else child.stdin.end();
    child.on('error', (error) =>
      finish({ ok: false, reason: `cannot start ${command}: ${error.message}` }),
    );
    child.on('close', (code, signal) => {
      if (options.signal.aborted) return finish({ ok: false, reason: 'killed' });
      if (timedOut)
        return finish({ ok: false, reason: `timed out after ${options.timeoutMs / 1000}s` });
      if (signal) return finish({ ok: false, reason: `killed by ${signal}` });
      if (code === 0 || (code !== null && options.acceptReturnCode.includes(code)))
        return finish({ ok: true, reason: '' });
      finish({ ok: false, reason: `exit code ${code}` });
    });
  });
}

async function hashFile(file: string): Promise<string> {
  const hasher = createHash('sha256');
  for await (const chunk of createReadStream(file)) hasher.update(chunk as Buffer);
  return hasher.digest('hex');
}

/** Every file under the datum's out folder with its content hash (the files stay staged there). */
export async function collectOutputs(outDir: string): Promise<OutputFile[]> {
  const outputs: OutputFile[] = [];
  async function walk(dir: string, prefix: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      const info = entry.isSymbolicLink() ? await stat(full) : null;
      if (entry.isDirectory() || info?.isDirectory()) await walk(full, `${prefix}/${entry.name}`);
      else if (entry.isFile() || info?.isFile()) {
        const size = info ? info.size : (await stat(full)).size;
        outputs.push({
          path: `${prefix}/${entry.name}`,
          hash: await hashFile(full),
          sizeBytes: size,
        });
      }
    }
  }
  await walk(outDir, '');
  return outputs;
}
