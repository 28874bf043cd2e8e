import { afterEach, describe, expect, it } from 'vitest';
import { readRuntimeSettings } from './runtime-settings.ts';

describe('readRuntimeSettings', () => {
  afterEach(() => {
    delete window.pachDashConfig;
  });

  it('defaults when the config script did not run', () => {
    expect(readRuntimeSettings()).toEqual({
      issuerUri: '',
      disableTelemetry: false,
      releaseVersion: '',
    });
  });

  it('reads window.pachDashConfig', () => {
    window.pachDashConfig = {
      REACT_APP_RUNTIME_ISSUER_URI: 'http://issuer',
      REACT_APP_RUNTIME_DISABLE_TELEMETRY: 'true',
      REACT_APP_RELEASE_VERSION: '1.2.3',
    };
    expect(readRuntimeSettings()).toEqual({
      issuerUri: 'http://issuer',
      disableTelemetry: true,
      releaseVersion: '1.2.3',
    });
  });

  it('ignores values of the wrong type and only disables telemetry on true', () => {
    expect(
      readRuntimeSettings({
        REACT_APP_RUNTIME_ISSUER_URI: 5,
        REACT_APP_RUNTIME_DISABLE_TELEMETRY: 'yes',
      }),
    ).toEqual({
      issuerUri: '',
      disableTelemetry: false,
      releaseVersion: '',
    });
  });
});
