import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunFields } from './protocol.ts';
import { SlotShells, type ShellEntry } from './slot-shells.ts';

interface Ran {
  status: number | null;
  signal: string | null;
  lines: string[];
}

let dir: string;
let shells: SlotShells;
let nextId = 0;

/** Hands a request to its slot's shell; resolves with its exit and the lines it printed. */
function run(
  key: string,
  cmd: string[],
  limit = 1,
  env: Pick<RunFields, 'env' | 'extraEnv'> = { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } },
  stdin = '',
): { entry: ShellEntry; done: Promise<Ran> } {
  const lines: string[] = [];
  let resolve!: (ran: Ran) => void;
  const done = new Promise<Ran>((r) => (resolve = r));
  const request: RunFields = {
    cmd,
    cwd: dir,
    ...env,
    stdin,
    timeoutMs: 0,
    group: 'job',
    limit,
    shell: { key: path.join(dir, key), argv: ['/bin/sh'], sandboxed: false },
  };
  const entry: ShellEntry = {
    id: ++nextId,
    request,
    started: 0,
    onStart: () => undefined,
    onLine: (_, line) => lines.push(line),
    onExit: (_, status, signal) => resolve({ status, signal, lines }),
  };
  shells.run(entry);
  return { entry, done };
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ivory-slot-shells-'));
  mkdirSync(path.join(dir, 'logs'));
  shells = new SlotShells(path.join(dir, 'logs'));
});

afterEach(() => {
  shells.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SlotShells', () => {
  it('runs a slot’s next request in a new shell when its shell died after the last one', async () => {
    // The process's parent is its slot's shell.
    const first = await run('slot-0', ['sh', '-c', 'echo $PPID']).done;
    expect(first.status).toBe(0);
    const shellPid = Number(first.lines[0]);
    expect(shellPid).toBeGreaterThan(1);
    // The shell dies between two requests; the next is handed over before its exit is heard.
    process.kill(shellPid, 'SIGKILL');
    const second = await run('slot-0', ['sh', '-c', 'echo ran; echo $PPID']).done;
    expect(second.status).toBe(0);
    expect(second.lines[0]).toBe('ran');
    expect(Number(second.lines[1])).not.toBe(shellPid);
  });

  it('gives each process its shared environment with its own variables set over it', async () => {
    const shared = { PATH: process.env.PATH ?? '/usr/bin:/bin', JOB: 'j1', DATUM: 'none' };
    const printEnv = ['sh', '-c', 'echo "$JOB $DATUM ${OTHER:-unset}"'];
    const lines: string[] = [];
    const extras: (Record<string, string> | undefined)[] = [
      { DATUM: 'd1' },
      { OTHER: 'o2' },
      undefined,
    ];
    // The same shared object for every request (quoted once), each with its own extras.
    for (const extraEnv of extras)
      lines.push(...(await run('slot-0', printEnv, 1, { env: shared, extraEnv }).done).lines);
    expect(lines).toEqual(['j1 d1 unset', 'j1 none o2', 'j1 none unset']);
  });

  it('gives a process exactly its environment when its slot’s shared one changes', async () => {
    const path = process.env.PATH ?? '/usr/bin:/bin';
    const printEnv = ['sh', '-c', 'echo "${A:-unset} ${B:-unset} ${PWD_SEEN:-unset}"'];
    const first = { PATH: path, A: 'a1', B: 'b1' };
    // A name the shell uses itself (not exported into it), then a new shared object without B.
    const own = { PATH: path, A: 'a2', CDPATH: '/nowhere', PWD_SEEN: 'x' };
    const third = { PATH: path, A: 'a3' };
    const lines: string[] = [];
    for (const env of [first, first, own, third])
      lines.push(...(await run('slot-0', printEnv, 1, { env }).done).lines);
    expect(lines).toEqual(['a1 b1 unset', 'a1 b1 unset', 'a2 unset x', 'a3 unset unset']);
    // A datum's own variable over a shared one, and not left behind for the next datum.
    const over = await run('slot-0', printEnv, 1, { env: third, extraEnv: { B: 'mine' } }).done;
    const after = await run('slot-0', printEnv, 1, { env: third }).done;
    expect([...over.lines, ...after.lines]).toEqual(['a3 mine unset', 'a3 unset unset']);
  });

  it('gives the program its stdin, run simply or in a subshell', async () => {
    const path = process.env.PATH ?? '/usr/bin:/bin';
    const simple = await run('slot-0', ['cat'], 1, { env: { PATH: path } }, 'first\n').done;
    // A variable that is no shell name: the program runs in a subshell, under `env -i`.
    const env = { PATH: path, 'NOT-A-SHELL-NAME': 'v' };
    const subshell = await run('slot-0', ['cat'], 1, { env }, 'x').done;
    const printed = await run('slot-0', ['env'], 1, { env }).done;
    expect([...simple.lines, ...subshell.lines]).toEqual(['first', 'x']);
    expect(printed.lines.sort()).toEqual(['NOT-A-SHELL-NAME=v', `PATH=${path}`]);
  });

  it('reports a request killed while it waits for a token as killed, not run again', async () => {
    const holder = run('slot-0', ['sleep', '30']);
    const waiter = run('slot-1', ['sh', '-c', 'echo must not run']);
    await new Promise((r) => setTimeout(r, 200));
    shells.kill(waiter.entry);
    const killed = await waiter.done;
    expect(killed).toEqual({ status: null, signal: null, lines: [] });
    shells.kill(holder.entry);
    expect((await holder.done).status).toBeNull();
    // The token the killed holder took is back: the group runs on.
    expect((await run('slot-2', ['true']).done).status).toBe(0);
  });
});
