import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Launcher, type LaunchRequest, type ShellSpec, type SlotFolder } from '../launcher.ts';

let dir: string;
let launcher: Launcher;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ivory-warm-'));
  launcher = new Launcher(path.join(dir, 'launcher'));
});

afterEach(() => {
  launcher.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A slot whose shell (plain, unsandboxed) notes each start of it in `starts`. */
function slotAt(name: string): { shell: ShellSpec; slot: SlotFolder; starts: string } {
  const root = path.join(dir, 'job', name);
  const pfs = path.join(root, 'pfs');
  const starts = path.join(dir, `${name}.starts`);
  const slot: SlotFolder = {
    root,
    pfs,
    inputs: [path.join(pfs, 'in')],
    out: path.join(pfs, 'out'),
    trash: path.join(dir, 'job', 'trash'),
    token: 'run-1',
  };
  const shell: ShellSpec = {
    key: root,
    argv: ['/bin/sh', '-c', `echo started >> '${starts}'; exec /bin/sh`],
    sandboxed: false,
  };
  return { shell, slot, starts };
}

/** A request that prints its input file `f.txt` (copied from `source`) from the slot. */
function catInput(
  { shell, slot }: { shell: ShellSpec; slot: SlotFolder },
  source: string,
  size: number,
): { request: LaunchRequest; lines: string[] } {
  const lines: string[] = [];
  const request: LaunchRequest = {
    cmd: ['sh', '-c', 'wc -c < in/f.txt; ls in'],
    cwd: slot.pfs,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdin: '',
    timeoutMs: 0,
    group: 'job',
    limit: 1,
    shell,
    prepare: {
      slot,
      dirs: [],
      copies: [[source, path.join(slot.pfs, 'in', 'f.txt'), size]],
      empties: [],
    },
    onLine: (line) => lines.push(line.trim()),
  };
  return { request, lines };
}

const startsOf = (file: string) => readFileSync(file, 'utf8').trim().split('\n');

describe('warm slots', () => {
  it('starts a slot’s shell before its first request, which then runs in it', async () => {
    const source = path.join(dir, 'small.txt');
    writeFileSync(source, 'hello\n');
    const slot = slotAt('slot-0');
    launcher.warm([slot], 'job', 1);
    // The shell starts (and the slot's folders are made) with no request yet.
    for (let i = 0; i < 100; i++) {
      try {
        if (startsOf(slot.starts).length > 0) break;
      } catch {
        // not started yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(startsOf(slot.starts)).toEqual(['started']);
    const { request, lines } = catInput(slot, source, 6);
    const result = await launcher.run(request);
    expect(result).toMatchObject({ code: 0, error: '', prepareError: '' });
    expect(lines).toEqual(['6', 'f.txt']);
    // No second shell was started for it.
    expect(startsOf(slot.starts)).toEqual(['started']);
  });

  it('never empties a slot whose first request came before its warm-up', async () => {
    // A large input is copied asynchronously: the warm-up, heard meanwhile, must not touch it.
    const size = 5 * 1024 * 1024;
    const source = path.join(dir, 'large.bin');
    writeFileSync(source, Buffer.alloc(size, 1));
    const slot = slotAt('slot-1');
    mkdirSync(slot.slot.root, { recursive: true });
    const { request, lines } = catInput(slot, source, size);
    const ran = launcher.run(request);
    launcher.warm([slot], 'job', 1);
    const result = await ran;
    expect(result).toMatchObject({ code: 0, error: '', prepareError: '' });
    expect(lines).toEqual([String(size), 'f.txt']);
    expect(startsOf(slot.starts)).toEqual(['started']);
  });
});
