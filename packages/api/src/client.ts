import { ApiError, isPermissionDenied } from './errors.ts';
import { errorFromResponse, readNdjson } from './stream.ts';
import { authorizationHeader, localStorageToken, type TokenProvider } from './token.ts';

export interface ApiClientOptions {
  /** Origin (and optional prefix) in front of `/api/...`; '' means same origin. */
  baseUrl?: string;
  getToken?: TokenProvider;
  fetch?: typeof fetch;
}

/** The transport every typed wrapper uses: `POST /api/<service>/<Method>` with JSON. */
export interface ApiClient {
  readonly baseUrl: string;
  /** A unary call; resolves with the response message. */
  unary<T>(service: string, method: string, body?: unknown, signal?: AbortSignal): Promise<T>;
  /** A unary call whose permission-denied (code 7) answer resolves to null (spec section 6). */
  unaryOrNull<T>(
    service: string,
    method: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<T | null>;
  /** A server-streaming call; yields each `result`. */
  stream<T>(
    service: string,
    method: string,
    body?: unknown,
    signal?: AbortSignal,
  ): AsyncGenerator<T, void, undefined>;
  /** A server-streaming call gathered into an array. */
  collect<T>(service: string, method: string, body?: unknown, signal?: AbortSignal): Promise<T[]>;
  /** A call whose request body is already encoded (e.g. an NDJSON client stream). */
  send<T>(service: string, method: string, encodedBody: string, signal?: AbortSignal): Promise<T>;
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const getToken = options.getToken ?? localStorageToken;
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function post(service: string, method: string, body: string, signal?: AbortSignal) {
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}/api/${service}/${method}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...authorizationHeader(getToken) },
        body,
        signal,
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new ApiError(14, err instanceof Error ? err.message : String(err));
    }
    if (!response.ok) throw await errorFromResponse(response);
    return response;
  }

  async function parseUnary<T>(response: Response): Promise<T> {
    const text = await response.text();
    return (text === '' ? {} : JSON.parse(text)) as T;
  }

  const client: ApiClient = {
    baseUrl,
    async unary<T>(service: string, method: string, body: unknown = {}, signal?: AbortSignal) {
      return parseUnary<T>(await post(service, method, JSON.stringify(body), signal));
    },
    async unaryOrNull<T>(
      service: string,
      method: string,
      body: unknown = {},
      signal?: AbortSignal,
    ) {
      try {
        return await client.unary<T>(service, method, body, signal);
      } catch (err) {
        if (isPermissionDenied(err)) return null;
        throw err;
      }
    },
    async *stream<T>(service: string, method: string, body: unknown = {}, signal?: AbortSignal) {
      yield* readNdjson<T>(await post(service, method, JSON.stringify(body), signal));
    },
    async collect<T>(service: string, method: string, body: unknown = {}, signal?: AbortSignal) {
      const results: T[] = [];
      for await (const result of client.stream<T>(service, method, body, signal))
        results.push(result);
      return results;
    },
    async send<T>(service: string, method: string, encodedBody: string, signal?: AbortSignal) {
      return parseUnary<T>(await post(service, method, encodedBody, signal));
    },
  };
  return client;
}
