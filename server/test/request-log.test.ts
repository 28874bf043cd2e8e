import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The server's log: one line per request; JSON by default off a terminal, or pino-pretty. */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A path fetched with GET, or a path and its request. */
type Request = string | [string, RequestInit];

async function logOf(format: string, paths: Request[]): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ivory-log-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      IVORY_DATA_DIR: dir,
      IVORY_SEED: 'false',
      IVORY_LOG_LEVEL: 'info',
      IVORY_LOG_FORMAT: format,
      IVORY_WEB_DIST: path.join(dir, 'no-web-dist'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (data: Buffer) => (output += data.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start:\n${output}`)), 30_000);
      child.stdout.on('data', () => {
        const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    const before = output.length;
    for (const p of paths) {
      const [at, init] = typeof p === 'string' ? [p, undefined] : p;
      await (await fetch(url + at, init)).arrayBuffer();
    }
    const deadline = Date.now() + 5000;
    const count = () => output.slice(before).split('\n').filter(Boolean).length;
    while (count() < paths.length && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 200));
    return output.slice(before).split('\n').filter(Boolean);
  } finally {
    child.kill('SIGKILL');
  }
}

describe('request log', () => {
  it('JSON: exactly one line per request, with method, url, status and time', async () => {
    const lines = await logOf('json', ['/healthz', '/jsonschema/pps_v2/Nope.schema.json']);
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((line) => JSON.parse(line));
    expect(first).toMatchObject({ method: 'GET', url: '/healthz', statusCode: 200 });
    expect(typeof first.responseTime).toBe('number');
    expect(first.msg).toMatch(/^GET \/healthz 200 [\d.]+ms$/);
    expect(second).toMatchObject({ statusCode: 404 });
    // Each key once: the request's child logger already carries reqId.
    for (const line of lines) expect(line.match(/"reqId":/g)).toHaveLength(1);
  }, 60_000);

  it('logs a 501 (a call this server does not offer, as auth with sign-in off) at info', async () => {
    const call = (method: string): Request => [
      `/api/auth_v2.API/${method}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
    ];
    const lines = await logOf('json', [call('WhoAmI'), call('GetRoleBinding')]);
    const entries = lines.map((line) => JSON.parse(line));
    expect(entries.map((e) => e.statusCode)).toEqual([501, 501]);
    // pino's levels: 30 info, 40 warn.
    expect(entries.map((e) => e.level)).toEqual([30, 30]);
  }, 60_000);

  it('pretty: one readable line per request, no JSON', async () => {
    const lines = await logOf('pretty', ['/healthz']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/INFO.*GET \/healthz 200 [\d.]+ms/);
    expect(lines[0]).not.toMatch(/^\{/);
  }, 60_000);
});
