import { describe, expect, it } from 'vitest';
import { createApiClient } from './client.ts';

/** Records requests and answers each with a prepared Response. */
function recordingFetch(answer: () => Response) {
  const requests: Array<{ url: string; init: RequestInit }> = [];
  const doFetch: typeof fetch = async (url, init) => {
    requests.push({ url: String(url), init: init ?? {} });
    return answer();
  };
  return { requests, doFetch };
}

describe('createApiClient', () => {
  it('posts JSON to /api/<service>/<Method> with the bearer token', async () => {
    const { requests, doFetch } = recordingFetch(() => new Response('{"major":2}'));
    const client = createApiClient({
      baseUrl: 'http://host/',
      getToken: () => 't1',
      fetch: doFetch,
    });
    await expect(client.unary('versionpb_v2.API', 'GetVersion', {})).resolves.toEqual({ major: 2 });
    expect(requests[0]?.url).toBe('http://host/api/versionpb_v2.API/GetVersion');
    expect(requests[0]?.init).toMatchObject({ method: 'POST', body: '{}' });
    expect(requests[0]?.init.headers).toMatchObject({
      'Content-Type': 'application/json',
      Authorization: 'Bearer t1',
    });
  });

  it('maps error bodies to ApiError and permission denied to null in unaryOrNull', async () => {
    const denied = () =>
      new Response('{"code":7,"message":"not authorized","details":[]}', { status: 403 });
    const client = createApiClient({ getToken: () => null, fetch: recordingFetch(denied).doFetch });
    await expect(client.unary('pfs_v2.API', 'InspectRepo', {})).rejects.toMatchObject({ code: 7 });
    await expect(client.unaryOrNull('pfs_v2.API', 'InspectRepo', {})).resolves.toBeNull();
  });

  it('collects a stream', async () => {
    const ndjson = () => new Response('{"result":{"a":1}}\n{"result":{"a":2}}\n');
    const client = createApiClient({ getToken: () => null, fetch: recordingFetch(ndjson).doFetch });
    await expect(client.collect('pfs_v2.API', 'ListRepo', {})).resolves.toEqual([
      { a: 1 },
      { a: 2 },
    ]);
  });

  it('turns a network failure into an UNAVAILABLE ApiError', async () => {
    const client = createApiClient({
      getToken: () => null,
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(client.unary('pfs_v2.API', 'ListProject')).rejects.toMatchObject({
      code: 14,
      message: 'Failed to fetch',
    });
  });
});
