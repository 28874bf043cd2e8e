import { ApiError, type ApiClient } from '@ivory/api';

/** Answers for `<service>/<Method>`: a value (unary) or an array (stream), computed from the body. */
export type FakeHandlers = Record<string, (body: unknown) => unknown>;

/** An in-memory ApiClient for unit tests; unknown methods fail with UNIMPLEMENTED. */
export function createFakeApiClient(
  handlers: FakeHandlers,
): ApiClient & { calls: Array<{ method: string; body: unknown }> } {
  const calls: Array<{ method: string; body: unknown }> = [];
  async function answer(service: string, method: string, body: unknown): Promise<unknown> {
    const key = `${service}/${method}`;
    calls.push({ method: key, body });
    const handler = handlers[key];
    if (!handler) throw new ApiError(12, `${key} is not implemented in this test`);
    return handler(body);
  }
  const client = {
    baseUrl: '',
    calls,
    unary: async <T>(service: string, method: string, body: unknown = {}) =>
      (await answer(service, method, body)) as T,
    unaryOrNull: async <T>(service: string, method: string, body: unknown = {}) =>
      (await answer(service, method, body)) as T | null,
    async *stream<T>(service: string, method: string, body: unknown = {}) {
      yield* (await answer(service, method, body)) as T[];
    },
    collect: async <T>(service: string, method: string, body: unknown = {}) =>
      (await answer(service, method, body)) as T[],
    send: async <T>(service: string, method: string, encodedBody: string) =>
      (await answer(service, method, encodedBody)) as T,
  };
  return client;
}
