import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const MiB = 1024 * 1024;

/** Runs `work` and returns how long it took in seconds. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Prints one labelled figure line, aligned so a run reads as a table. */
export function printFigure(label: string, value: string): void {
  console.log(`${label.padEnd(58)} ${value}`);
}

export function throughput(bytes: number, seconds: number): string {
  return `${(bytes / MiB / seconds).toFixed(1)} MiB/s`;
}

/** A scratch folder removed when the benchmark ends, even when it fails. */
export async function withScratchDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ivory-perf-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
