import type { FastifyRequest } from 'fastify';

import { invalidArgument } from '../errors.ts';

export const CALLBACK_PATH = '/oauth/callback/';
const ALLOWED_QUERIES = new Set(['', '?inline=true']);

function httpOrigin(value: string | undefined): string | undefined {
  if (!value || value === 'null') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The console's origin: IVORY_PUBLIC_URL when configured; otherwise the browser's Origin header
 * (right behind a dev proxy that rewrites Host); otherwise the request's own scheme and Host.
 */
export function consoleOrigin(request: FastifyRequest, publicUrl: string | undefined): string {
  const configured = httpOrigin(publicUrl);
  if (configured) return configured;
  const origin = httpOrigin(request.headers.origin);
  if (origin) return origin;
  return `${request.protocol}://${request.host}`;
}

/**
 * The redirect_uri of the code exchange: it must equal the one the browser used in the
 * authorization request. Without one from the browser, `<console origin>/oauth/callback/`;
 * with one, it must be that same URL, optionally with exactly `?inline=true`.
 */
export function resolveRedirectUri(
  request: FastifyRequest,
  publicUrl: string | undefined,
  fromBrowser: unknown,
): string {
  const origin = consoleOrigin(request, publicUrl);
  const expected = `${origin}${CALLBACK_PATH}`;
  if (fromBrowser === undefined || fromBrowser === null || fromBrowser === '') return expected;
  if (typeof fromBrowser !== 'string') throw invalidArgument('redirectUri must be a string');
  let url: URL;
  try {
    url = new URL(fromBrowser);
  } catch {
    throw invalidArgument('redirectUri must be an absolute URL');
  }
  if (
    url.origin !== origin ||
    url.pathname !== CALLBACK_PATH ||
    !ALLOWED_QUERIES.has(url.search) ||
    url.hash ||
    url.username ||
    url.password
  ) {
    throw invalidArgument(`redirectUri must be ${expected} (optionally with ?inline=true)`);
  }
  return `${expected}${url.search}`;
}
