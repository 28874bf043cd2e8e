import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** A receiver running in a child process of its own (so its CPU is measured apart). */
export interface ChildReceiver {
  port: number;
  pid: number;
  /** Ends the child and waits until it has exited. */
  kill(): Promise<void>;
}

/**
 * Runs `script` (TypeScript, through tsx) with `args` in a child process and waits for the
 * "listening <port>" line it prints on stdout once it accepts connections.
 */
export async function startChildReceiver(
  script: string,
  args: string[],
  name: string,
): Promise<ChildReceiver> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (data: Buffer) => {
      text += data.toString();
      const match = /listening (\d+)/.exec(text);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', () => reject(new Error(`${name} exited`)));
  });
  return {
    port,
    pid: child.pid ?? 0,
    kill: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
