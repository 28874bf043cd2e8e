import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../config.ts';
import { runtimeConfigScript } from './runtime-config.ts';

function settingsOf(script: string): Record<string, string> {
  const match = /^window\.pachDashConfig = (.*);\n$/.exec(script);
  if (!match?.[1]) throw new Error(`unexpected script: ${script}`);
  return JSON.parse(match[1]) as Record<string, string>;
}

describe('runtime settings script', () => {
  it('names the issuer, telemetry switch and release version the server was started with', () => {
    const config = configFromEnv({
      IVORY_OIDC_ISSUER: 'https://login.example.com/realms/ivory',
      IVORY_OIDC_CLIENT_ID: 'console',
      IVORY_OIDC_CLIENT_SECRET: 'secret',
      IVORY_DISABLE_TELEMETRY: 'true',
      IVORY_RELEASE_VERSION: '1.2.3',
    });
    expect(settingsOf(runtimeConfigScript(config))).toEqual({
      REACT_APP_RUNTIME_ISSUER_URI: 'https://login.example.com/realms/ivory',
      REACT_APP_RUNTIME_DISABLE_TELEMETRY: 'true',
      REACT_APP_RELEASE_VERSION: '1.2.3',
    });
  });

  it('leaves the issuer empty and telemetry on by default', () => {
    const settings = settingsOf(runtimeConfigScript(configFromEnv({})));
    expect(settings.REACT_APP_RUNTIME_ISSUER_URI).toBe('');
    expect(settings.REACT_APP_RUNTIME_DISABLE_TELEMETRY).toBe('false');
  });
});
