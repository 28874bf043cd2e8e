import { describe, expect, it } from 'vitest';
import { base64ToBytes } from './base64.ts';
import { createSecret, getLogsRequest, secretManifest } from './pps.ts';
import type { ApiClient } from './client.ts';

describe('secretManifest', () => {
  it('builds a v1 Secret with base64 data values', () => {
    expect(secretManifest('db', [{ key: 'password', value: 'pä55' }], { team: 'a' })).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', labels: { team: 'a' } },
      data: { password: 'cMOkNTU=' },
    });
  });
});

describe('createSecret', () => {
  it('sends the manifest as base64 JSON in `file`', async () => {
    const bodies: unknown[] = [];
    const client = {
      unary: async (_s: string, _m: string, body: unknown) => {
        bodies.push(body);
        return {};
      },
    } as unknown as ApiClient;
    await createSecret(client, 'db', [{ key: 'user', value: 'admin' }]);
    const file = (bodies[0] as { file: string }).file;
    const manifest = JSON.parse(new TextDecoder().decode(base64ToBytes(file)));
    expect(manifest.metadata.name).toBe('db');
    expect(atob(manifest.data.user)).toBe('admin');
  });
});

describe('getLogsRequest', () => {
  it('nests the datum under its job and the job under its pipeline', () => {
    const request = getLogsRequest({
      project: 'p',
      pipeline: 'edges',
      jobId: 'j1',
      datumId: 'd1',
      follow: true,
      sinceSeconds: 60,
    });
    expect(request).toMatchObject({
      pipeline: { project: { name: 'p' }, name: 'edges' },
      job: { id: 'j1' },
      datum: { id: 'd1', job: { id: 'j1', pipeline: { name: 'edges' } } },
      follow: true,
      since: '60s',
      tail: '0',
    });
  });
});
