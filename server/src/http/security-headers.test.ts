import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  appContentSecurityPolicy,
  inlineScriptHashes,
  isFileRoute,
  needsAttachment,
  originsOf,
} from './security-headers.ts';

describe('inlineScriptHashes', () => {
  it('hashes inline scripts only', () => {
    const html =
      '<script defer src="/runtime-config.js"></script><script>a()</script>' +
      '<script type="module" src="/x.js"></script><script type="text/javascript">b()</script>';
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(inlineScriptHashes(html)).toEqual([hash('a()'), hash('b()')]);
  });
});

describe('appContentSecurityPolicy', () => {
  it('allows only the console’s scripts and origins, and no framing', () => {
    const policy = appContentSecurityPolicy({
      scriptHashes: ["'sha256-x'"],
      connectOrigins: originsOf(['https://key@o1.ingest.sentry.io/2', 'not a url', 'grpc://h:1']),
    });
    expect(policy).toContain("script-src 'self' 'sha256-x';");
    expect(policy).toContain("connect-src 'self' https://o1.ingest.sentry.io;");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval|\*)/);
  });
});

describe('file routes and attachments', () => {
  it('knows the file routes by pattern', () => {
    expect(isFileRoute('/files/:project/:repo/:commit/*')).toBe(true);
    expect(isFileRoute('/files/:project/:repo/:commit')).toBe(true);
    expect(isFileRoute('/api/:service/:method')).toBe(false);
    expect(isFileRoute(undefined)).toBe(false);
  });

  it('makes active types attachments unless asked for as a subresource', () => {
    expect(needsAttachment('text/html; charset=utf-8', 'document')).toBe(true);
    expect(needsAttachment('image/svg+xml', undefined)).toBe(true);
    expect(needsAttachment('image/svg+xml', 'image')).toBe(false);
    expect(needsAttachment('text/xml', 'iframe')).toBe(false);
    expect(needsAttachment('text/plain; charset=utf-8', 'document')).toBe(false);
  });
});
