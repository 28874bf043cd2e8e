/** Settings the server injects at runtime through `/runtime-config.js`. */
export interface RuntimeSettings {
  issuerUri: string;
  /** Telemetry is on unless the disable setting equals true. */
  disableTelemetry: boolean;
  releaseVersion: string;
}

interface PachDashConfig {
  REACT_APP_RUNTIME_ISSUER_URI?: unknown;
  REACT_APP_RUNTIME_DISABLE_TELEMETRY?: unknown;
  REACT_APP_RELEASE_VERSION?: unknown;
}

declare global {
  interface Window {
    pachDashConfig?: PachDashConfig;
  }
}

export function readRuntimeSettings(
  config: PachDashConfig | undefined = globalThis.window?.pachDashConfig,
): RuntimeSettings {
  const source = config && typeof config === 'object' ? config : {};
  return {
    issuerUri: asString(source.REACT_APP_RUNTIME_ISSUER_URI),
    disableTelemetry:
      source.REACT_APP_RUNTIME_DISABLE_TELEMETRY === true ||
      source.REACT_APP_RUNTIME_DISABLE_TELEMETRY === 'true',
    releaseVersion: asString(source.REACT_APP_RELEASE_VERSION),
  };
}

function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
