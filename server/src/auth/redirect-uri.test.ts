import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';

import { consoleOrigin, resolveRedirectUri } from './redirect-uri.ts';

function request(headers: Record<string, string>, host = '127.0.0.1:4000'): FastifyRequest {
  return { headers, host, protocol: 'http' } as unknown as FastifyRequest;
}

describe('consoleOrigin', () => {
  it('prefers IVORY_PUBLIC_URL, then the Origin header, then scheme and Host', () => {
    const origin = { origin: 'http://localhost:5173' };
    expect(consoleOrigin(request(origin), 'https://console.example.com')).toBe(
      'https://console.example.com',
    );
    expect(consoleOrigin(request(origin), undefined)).toBe('http://localhost:5173');
    expect(consoleOrigin(request({ origin: 'null' }), undefined)).toBe('http://127.0.0.1:4000');
    expect(consoleOrigin(request({}), undefined)).toBe('http://127.0.0.1:4000');
  });
});

describe('resolveRedirectUri', () => {
  const public_ = 'https://console.example.com';

  it('defaults to <origin>/oauth/callback/', () => {
    expect(resolveRedirectUri(request({}), public_, undefined)).toBe(
      'https://console.example.com/oauth/callback/',
    );
    expect(resolveRedirectUri(request({}), undefined, '')).toBe(
      'http://127.0.0.1:4000/oauth/callback/',
    );
  });

  it('accepts the browser’s redirect URI when it is the callback, optionally ?inline=true', () => {
    for (const uri of [
      'https://console.example.com/oauth/callback/',
      'https://console.example.com/oauth/callback/?inline=true',
    ]) {
      expect(resolveRedirectUri(request({}), public_, uri)).toBe(uri);
    }
  });

  it('refuses any other redirect URI', () => {
    for (const uri of [
      'https://evil.example.com/oauth/callback/',
      'http://console.example.com/oauth/callback/',
      'https://console.example.com:8443/oauth/callback/',
      'https://console.example.com/oauth/callback',
      'https://console.example.com/oauth/callback/x',
      'https://console.example.com/oauth/callback/?inline=true&x=1',
      'https://console.example.com/oauth/callback/?next=https://evil.example.com',
      'https://console.example.com/oauth/callback/#inline',
      'https://user:pw@console.example.com/oauth/callback/',
      '/oauth/callback/',
      42,
    ]) {
      expect(() => resolveRedirectUri(request({}), public_, uri), String(uri)).toThrow(
        /redirectUri/,
      );
    }
  });
});
