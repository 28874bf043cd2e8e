import { describe, expect, it } from 'vitest';

import { isAuthEnabled, readAuthConfig } from './config.ts';

const full = {
  IVORY_OIDC_ISSUER: 'https://idp.example.com/realms/ivory',
  IVORY_OIDC_CLIENT_ID: 'console',
  IVORY_OIDC_CLIENT_SECRET: 's3cret',
  IVORY_OIDC_PACHD_CLIENT_ID: 'pachd',
  IVORY_PUBLIC_URL: 'https://console.example.com/some/page?x=1',
};

describe('readAuthConfig', () => {
  it('reads nothing from an empty environment: authentication off', () => {
    const config = readAuthConfig({});
    expect(config).toEqual({});
    expect(isAuthEnabled(config)).toBe(false);
  });

  it('reads every setting, keeping only the origin of the public URL', () => {
    const config = readAuthConfig(full);
    expect(config).toEqual({
      issuer: 'https://idp.example.com/realms/ivory',
      clientId: 'console',
      clientSecret: 's3cret',
      pachdClientId: 'pachd',
      publicUrl: 'https://console.example.com',
    });
    expect(isAuthEnabled(config)).toBe(true);
  });

  it('treats empty and blank values as unset, and trims the rest', () => {
    const config = readAuthConfig({
      IVORY_OIDC_ISSUER: '',
      IVORY_OIDC_CLIENT_ID: '  ',
      IVORY_OIDC_PACHD_CLIENT_ID: ' pachd ',
    });
    expect(config).toEqual({ pachdClientId: 'pachd' });
    expect(isAuthEnabled(config)).toBe(false);
  });

  it('ignores client settings when there is no issuer', () => {
    const { IVORY_OIDC_ISSUER: _, ...withoutIssuer } = full;
    expect(isAuthEnabled(readAuthConfig(withoutIssuer))).toBe(false);
  });

  it('requires the client id and secret once an issuer is set', () => {
    expect(() => readAuthConfig({ ...full, IVORY_OIDC_CLIENT_ID: '' })).toThrow(
      /IVORY_OIDC_CLIENT_ID is required/,
    );
    expect(() => readAuthConfig({ ...full, IVORY_OIDC_CLIENT_SECRET: '' })).toThrow(
      /IVORY_OIDC_CLIENT_SECRET is required/,
    );
  });

  it('rejects URLs that are not absolute http(s) URLs', () => {
    expect(() => readAuthConfig({ ...full, IVORY_OIDC_ISSUER: 'idp.example.com' })).toThrow(
      /IVORY_OIDC_ISSUER/,
    );
    expect(() => readAuthConfig({ ...full, IVORY_OIDC_ISSUER: 'ftp://idp.example.com' })).toThrow(
      /IVORY_OIDC_ISSUER/,
    );
    expect(() => readAuthConfig({ ...full, IVORY_PUBLIC_URL: 'not a url' })).toThrow(
      /IVORY_PUBLIC_URL/,
    );
  });

  it('accepts an http issuer (loopback identity providers in development)', () => {
    expect(readAuthConfig({ ...full, IVORY_OIDC_ISSUER: 'http://127.0.0.1:5556' }).issuer).toBe(
      'http://127.0.0.1:5556',
    );
  });
});
