import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Security headers, decided in one place after routing: by the route the request matched (its
 * pattern, so `/%66iles/…` and `/pfs/…` get the same headers as `/files/…`), never by how the
 * raw URL is spelled.
 *
 * - File bytes (`/files/…`, its `/pfs/…` alias, archives): a sandboxed document (no scripts, an
 *   opaque origin), no type sniffing, and an attachment disposition for types a browser would
 *   run (HTML, SVG, XML) unless the browser asks for them as a subresource (a preview iframe,
 *   an image, a fetch).
 * - Everything else (the console, its API): a CSP that lets only the console's own scripts run
 *   (its inline preload script by hash), no framing by other sites, no sniffing, and a
 *   Referrer-Policy.
 */

/** Route patterns whose answers are repo file bytes. */
export function isFileRoute(route: string | undefined): boolean {
  return route === '/files' || (route?.startsWith('/files/') ?? false);
}

export const FILE_SECURITY_HEADERS = {
  'content-security-policy': 'sandbox',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

/** Types a browser renders as an active document (scripts can run in them). */
const ACTIVE_TYPE =
  /^\s*(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml)\b/i;

/** Sec-Fetch-Dest values of a request for a subresource the console shows (not a navigation). */
const SUBRESOURCE_DESTINATIONS = new Set(['iframe', 'frame', 'empty', 'image', 'embed', 'object']);

/** True when an active type is being opened as a page (or by a client that does not say). */
export function needsAttachment(contentType: string, fetchDest: string | undefined): boolean {
  if (!ACTIVE_TYPE.test(contentType)) return false;
  return !fetchDest || !SUBRESOURCE_DESTINATIONS.has(fetchDest.toLowerCase());
}

/** `'sha256-…'` sources for every inline `<script>` (one with no src) of an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const [, attributes = '', body = ''] = match;
    if (/\bsrc\s*=/i.test(attributes) || body === '') continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

export interface AppPolicyOptions {
  /** Hash sources of the page's inline scripts (inlineScriptHashes of the built index.html). */
  scriptHashes: string[];
  /** Other origins the page may call (error reports, analytics), from the runtime settings. */
  connectOrigins?: string[];
  /** Other origins the page may load scripts from (the analytics SDK's plugins). */
  scriptOrigins?: string[];
}

/** The console's Content-Security-Policy. */
export function appContentSecurityPolicy(options: AppPolicyOptions): string {
  const connect = ["'self'", ...(options.connectOrigins ?? [])];
  return [
    "default-src 'self'",
    ["script-src 'self'", ...options.scriptHashes, ...(options.scriptOrigins ?? [])].join(' '),
    // antd sets style attributes at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    "worker-src 'self' blob:",
    // Previews frame the console's own /files URLs (those answer with a sandbox CSP).
    "frame-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

export function appSecurityHeaders(policy: string): Record<string, string> {
  return {
    'content-security-policy': policy,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
  };
}

/** The origin of each http(s) URL among the values; others are skipped. */
export function originsOf(values: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const value of values) {
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') origins.add(url.origin);
    } catch {
      // Not a URL: nothing to allow.
    }
  }
  return [...origins];
}

const RUDDERSTACK_CDN = 'https://cdn.rudderlabs.com';
const RUDDERSTACK_CONFIG = 'https://api.rudderstack.com';

/**
 * The console's policy for a built web app folder: hashes of index.html's inline scripts, read
 * once at start (the build writes them); connect origins from the browser settings' URLs.
 */
export function appPolicyFor(webDist: string, browserSettings: Record<string, string>): string {
  let html = '';
  try {
    html = readFileSync(path.join(webDist, 'index.html'), 'utf8');
  } catch {
    // Not built: the server answers a static page with no script.
  }
  // With an analytics write key, the RudderStack SDK fetches its source config and loads its
  // plugins from RudderStack's own origins.
  const analytics = browserSettings.REACT_APP_RUDDERSTACK_WRITE_KEY
    ? { script: [RUDDERSTACK_CDN], connect: [RUDDERSTACK_CDN, RUDDERSTACK_CONFIG] }
    : { script: [], connect: [] };
  return appContentSecurityPolicy({
    scriptHashes: inlineScriptHashes(html),
    connectOrigins: [...originsOf(Object.values(browserSettings)), ...analytics.connect],
    scriptOrigins: analytics.script,
  });
}

function headerText(value: unknown): string {
  return Array.isArray(value) ? String(value[0] ?? '') : typeof value === 'string' ? value : '';
}

/** Adds the onSend hook (on the root instance, before the routes). */
export function registerSecurityHeaders(app: FastifyInstance, appPolicy: string): void {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    if (isFileRoute(request.routeOptions.url)) {
      reply.headers(FILE_SECURITY_HEADERS);
      const type = headerText(reply.getHeader('content-type'));
      if (
        !reply.hasHeader('content-disposition') &&
        needsAttachment(type, headerText(request.headers['sec-fetch-dest']))
      ) {
        reply.header('content-disposition', 'attachment');
      }
      return payload;
    }
    reply.headers(appSecurityHeaders(appPolicy));
    return payload;
  });
}
