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
      REACT_APP_PLATFORM: 'embedded',
    });
  });

  it('says whether the embedded platform or a cluster answers', () => {
    const cluster = configFromEnv({ IVORY_PACHD_ADDRESS: 'http://pachd.example.com:30650' });
    expect(settingsOf(runtimeConfigScript(cluster)).REACT_APP_PLATFORM).toBe('cluster');
  });

  it('passes optional browser settings through under their REACT_APP_ names', () => {
    const settings = settingsOf(
      runtimeConfigScript(
        configFromEnv({
          IVORY_SENTRY_DSN: 'https://key@errors.example.com/1',
          IVORY_RUDDERSTACK_WRITE_KEY: ' ',
          IVORY_PACHCTL_ADDRESS: 'grpcs://pachd.example.com:443',
        }),
      ),
    );
    expect(settings.REACT_APP_SENTRY_DSN).toBe('https://key@errors.example.com/1');
    expect(settings.REACT_APP_PACHD_ADDRESS).toBe('grpcs://pachd.example.com:443');
    expect(settings).not.toHaveProperty('REACT_APP_RUDDERSTACK_WRITE_KEY');
  });

  it('passes a self-hosted RudderStack control plane and local source configuration', () => {
    const source = '{"source":{"id":"local","config":{},"destinations":[]}}';
    const settings = settingsOf(
      runtimeConfigScript(
        configFromEnv({
          IVORY_RUDDERSTACK_CONFIG_URL: 'http://rudder.internal:5000',
          IVORY_RUDDERSTACK_SOURCE_CONFIG: source,
        }),
      ),
    );
    expect(settings.REACT_APP_RUDDERSTACK_CONFIG_URL).toBe('http://rudder.internal:5000');
    expect(settings.REACT_APP_RUDDERSTACK_SOURCE_CONFIG).toBe(source);
    expect(() => configFromEnv({ IVORY_RUDDERSTACK_SOURCE_CONFIG: '{nope' })).toThrow(
      /IVORY_RUDDERSTACK_SOURCE_CONFIG must be JSON/,
    );
  });

  it('leaves the issuer empty and telemetry on by default', () => {
    const settings = settingsOf(runtimeConfigScript(configFromEnv({})));
    expect(settings.REACT_APP_RUNTIME_ISSUER_URI).toBe('');
    expect(settings.REACT_APP_RUNTIME_DISABLE_TELEMETRY).toBe('false');
  });
});
