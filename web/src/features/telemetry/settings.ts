/** Telemetry settings, read optionally from window.pachDashConfig (runtime-config.js). */
export interface TelemetrySettings {
  /** REACT_APP_RUNTIME_DISABLE_TELEMETRY === 'true'. */
  disabled: boolean;
  /** REACT_APP_RUDDERSTACK_WRITE_KEY and REACT_APP_RUDDERSTACK_DATA_PLANE_URL. */
  analyticsWriteKey: string;
  analyticsDataPlaneUrl: string;
  /**
   * REACT_APP_RUDDERSTACK_CONFIG_URL: the control plane the SDK asks for its source
   * configuration (RudderStack's hosted one when empty).
   */
  analyticsConfigUrl: string;
  /**
   * REACT_APP_RUDDERSTACK_SOURCE_CONFIG: the source configuration itself (JSON), so that a
   * self-hosted data plane needs no control plane at all.
   */
  analyticsSourceConfig: string;
  /** REACT_APP_SENTRY_DSN. */
  errorReportingDsn: string;
  releaseVersion: string;
}

function str(source: Record<string, unknown>, key: string): string {
  const value = source[key];
  return typeof value === 'string' ? value.trim() : '';
}

export function readTelemetrySettings(
  config: unknown = globalThis.window?.pachDashConfig,
): TelemetrySettings {
  const source = (config && typeof config === 'object' ? config : {}) as Record<string, unknown>;
  const disable = source.REACT_APP_RUNTIME_DISABLE_TELEMETRY;
  return {
    disabled: disable === 'true' || disable === true,
    analyticsWriteKey: str(source, 'REACT_APP_RUDDERSTACK_WRITE_KEY'),
    analyticsDataPlaneUrl: str(source, 'REACT_APP_RUDDERSTACK_DATA_PLANE_URL'),
    analyticsConfigUrl: str(source, 'REACT_APP_RUDDERSTACK_CONFIG_URL'),
    analyticsSourceConfig: str(source, 'REACT_APP_RUDDERSTACK_SOURCE_CONFIG'),
    errorReportingDsn: str(source, 'REACT_APP_SENTRY_DSN'),
    releaseVersion: str(source, 'REACT_APP_RELEASE_VERSION'),
  };
}

export function analyticsEnabled(settings: TelemetrySettings): boolean {
  return (
    !settings.disabled && settings.analyticsWriteKey !== '' && settings.analyticsDataPlaneUrl !== ''
  );
}

/** The SDK's load options: where its source configuration comes from, no polyfill fetch. */
export function analyticsLoadOptions(settings: TelemetrySettings): Record<string, unknown> {
  const options: Record<string, unknown> = { logLevel: 'NONE', polyfillIfRequired: false };
  if (settings.analyticsConfigUrl) options.configUrl = settings.analyticsConfigUrl;
  if (settings.analyticsSourceConfig) {
    const text = settings.analyticsSourceConfig;
    options.getSourceConfig = () => text;
  }
  return options;
}

export function errorReportingEnabled(settings: TelemetrySettings): boolean {
  return !settings.disabled && settings.errorReportingDsn !== '';
}
