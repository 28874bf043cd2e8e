import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ApiClient } from './client.ts';
import { call, collect, type RequestOf, type ResponseOf } from './typed-call.ts';

/** A transport that records what it was asked and answers `answer`. */
function recorder(answer: unknown) {
  const asked: Array<{ service: string; method: string; body: unknown }> = [];
  const client = {
    baseUrl: '',
    unary: async (service: string, method: string, body: unknown) => {
      asked.push({ service, method, body });
      return answer;
    },
    unaryOrNull: async () => answer,
    async *stream() {},
    collect: async (service: string, method: string, body: unknown) => {
      asked.push({ service, method, body });
      return [answer];
    },
    send: async () => answer,
  } as unknown as ApiClient;
  return { client, asked };
}

describe('typed calls', () => {
  it('send the request to <service>/<Method> and return the answer', async () => {
    const { client, asked } = recorder({ description: 'd' });
    const repo = { name: 'r', type: 'user', project: { name: 'p' } };
    const info = await call(client, 'pfs_v2.API/InspectRepo', { repo });
    expect(info.description).toBe('d');
    await collect(client, 'pps_v2.API/ListJob', { history: '-1' });
    expect(asked.map(({ service, method }) => `${service}/${method}`)).toEqual([
      'pfs_v2.API/InspectRepo',
      'pps_v2.API/ListJob',
    ]);
  });

  it('type the request and the answer from the protocol files', () => {
    expectTypeOf<RequestOf<'pfs_v2.API/InspectRepo'>>().toHaveProperty('repo');
    expectTypeOf<
      ResponseOf<'pfs_v2.API/InspectRepo'>['sizeBytesUpperBound']
    >().toEqualTypeOf<string>();
    const { client } = recorder({});
    // Each of these is a type error (checked by `tsc -p packages/api`):
    // @ts-expect-error a misspelt field
    void call(client, 'pfs_v2.API/InspectRepo', { repoo: {} });
    // @ts-expect-error int64 travels as a string
    void collect(client, 'pps_v2.API/ListJob', { history: -1 });
    // @ts-expect-error a streaming method is not a unary call
    void call(client, 'pps_v2.API/ListJob', {});
    // @ts-expect-error no such method
    void call(client, 'pfs_v2.API/InspectRepository', {});
  });
});
