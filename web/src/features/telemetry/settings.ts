/** Telemetry settings, read optionally from window.pachDashConfig (runtime-config.js). */
export interface TelemetrySettings {
  /** REACT_APP_RUNTIME_DISABLE_TELEMETRY === 'true'. */
  disabled: boolean;
  /** REACT_APP_RUDDERSTACK_WRITE_KEY and REACT_APP_RUDDERSTACK_DATA_PLANE_URL. */
  analyticsWriteKey: string;
  analyticsDataPlaneUrl: string;
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
    errorReportingDsn: str(source, 'REACT_APP_SENTRY_DSN'),
    releaseVersion: str(source, 'REACT_APP_RELEASE_VERSION'),
  };
}

export function analyticsEnabled(settings: TelemetrySettings): boolean {
  return (
    !settings.disabled && settings.analyticsWriteKey !== '' && settings.analyticsDataPlaneUrl !== ''
  );
}

export function errorReportingEnabled(settings: TelemetrySettings): boolean {
  return !settings.disabled && settings.errorReportingDsn !== '';
}
