import { ApiError, GrpcCode } from './errors.ts';
import { authorizationHeader, localStorageToken, type TokenProvider } from './token.ts';

export const GENERIC_FETCH_ERROR = 'Something went wrong. Please try again.';

export interface FetchHelperOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  getToken?: TokenProvider;
  fetch?: typeof fetch;
}

/**
 * The generic fetch helper (spec section 7): GET by default, credentials included, cors mode,
 * JSON content type, bearer id token; the response is read as text. Throws an ApiError whose
 * message is the body's `message`, the first `errors[].detail`, the plain text, or a generic text.
 */
export async function fetchText(url: string, options: FetchHelperOptions = {}): Promise<string> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const response = await doFetch(url, {
    method: options.method ?? 'GET',
    credentials: 'include',
    mode: 'cors',
    headers: {
      'Content-Type': 'application/json',
      ...authorizationHeader(options.getToken ?? localStorageToken),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(codeOf(text), fetchErrorMessage(text), [], response.status);
  return text;
}

/** Parses JSON when the text is JSON, else returns the plain text. */
export function parseJsonOrText<T>(text: string): T | string {
  try {
    return JSON.parse(text) as T;
  } catch {
    return text;
  }
}

export async function fetchJson<T>(
  url: string,
  options: FetchHelperOptions = {},
): Promise<T | string> {
  return parseJsonOrText<T>(await fetchText(url, options));
}

/** Wrappers that put an optional path prefix in front of every call. */
export function createFetcher(prefix = '', defaults: FetchHelperOptions = {}) {
  return {
    text: (path: string, options: FetchHelperOptions = {}) =>
      fetchText(prefix + path, { ...defaults, ...options }),
    json: <T>(path: string, options: FetchHelperOptions = {}) =>
      fetchJson<T>(prefix + path, { ...defaults, ...options }),
  };
}

/** The message to show for a failed response body (section 8). */
export function fetchErrorMessage(text: string): string {
  const body = parseJsonOrText<Record<string, unknown>>(text);
  if (typeof body === 'string') return body.trim() !== '' ? body : GENERIC_FETCH_ERROR;
  if (body && typeof body === 'object') {
    if (typeof body.message === 'string' && body.message !== '') return body.message;
    const first = Array.isArray(body.errors) ? (body.errors[0] as unknown) : undefined;
    if (
      first &&
      typeof first === 'object' &&
      typeof (first as { detail?: unknown }).detail === 'string'
    ) {
      return (first as { detail: string }).detail;
    }
  }
  return GENERIC_FETCH_ERROR;
}

function codeOf(text: string): number {
  const body = parseJsonOrText<{ code?: unknown }>(text);
  return typeof body === 'object' && body !== null && typeof body.code === 'number'
    ? body.code
    : GrpcCode.UNKNOWN;
}
