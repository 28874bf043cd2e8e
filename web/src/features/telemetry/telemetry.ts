import { allAttribution, readAttribution, writeAttributionCookies } from './attribution.ts';
import { createClickTracker } from './click-tracking.ts';
import {
  analyticsEnabled,
  analyticsLoadOptions,
  errorReportingEnabled,
  readTelemetrySettings,
  type TelemetrySettings,
} from './settings.ts';

/** The slice of the RudderStack SDK used here. */
export interface AnalyticsSdk {
  load(writeKey: string, dataPlaneUrl: string, options?: Record<string, unknown>): void;
  track(event: string, properties?: Record<string, unknown>): void;
  page(name?: string, properties?: Record<string, unknown>): void;
  identify(userId: string, traits?: Record<string, unknown>): void;
}

/** The slice of the Sentry SDK used here. */
export interface ErrorReportingSdk {
  init(options: Record<string, unknown>): unknown;
  captureException(error: unknown): unknown;
}

/** Dynamic imports: neither library is in the initial bundle, or loaded at all when off. */
export interface TelemetryLoaders {
  analytics(): Promise<AnalyticsSdk>;
  errorReporting(): Promise<ErrorReportingSdk>;
}

export const defaultLoaders: TelemetryLoaders = {
  async analytics() {
    // The bundled build carries its plugins: nothing is fetched from RudderStack's CDN, so a
    // data plane on the user's own network is all it talks to.
    const { RudderAnalytics } = await import('@rudderstack/analytics-js/bundled');
    return new RudderAnalytics() as unknown as AnalyticsSdk;
  },
  async errorReporting() {
    return (await import('@sentry/react')) as unknown as ErrorReportingSdk;
  },
};

export interface Telemetry {
  track(event: string, properties?: Record<string, unknown>): void;
  page(path: string): void;
  identify(userId: string, traits: Record<string, unknown>): void;
  reportError(error: unknown): void;
  stop(): void;
}

/** Failures never interrupt the user. */
function quietly(action: () => void): void {
  try {
    action();
  } catch {
    // ignored
  }
}

let active: Telemetry | null = null;

/** Whether analytics or error reporting is running (something to send to). */
export function telemetryActive(): boolean {
  return active !== null;
}

/**
 * Starts telemetry: attribution cookies, then (only when a destination is configured and
 * telemetry is not disabled) the analytics SDK and error reporting, loaded on demand.
 * Returns null when nothing was started.
 */
export function startTelemetry(
  settings: TelemetrySettings = readTelemetrySettings(),
  loaders: TelemetryLoaders = defaultLoaders,
  doc: Document = document,
): Telemetry | null {
  active?.stop();
  active = null;
  if (settings.disabled) return null;
  const utmVisit = quietlyValue(() => writeAttributionCookies(doc.location?.search ?? ''), false);
  const withAnalytics = analyticsEnabled(settings);
  const withErrors = errorReportingEnabled(settings);
  if (!withAnalytics && !withErrors) return null;

  const errors: Promise<ErrorReportingSdk | null> = withErrors
    ? loaders
        .errorReporting()
        .then((sdk) => {
          sdk.init({
            dsn: settings.errorReportingDsn,
            release: settings.releaseVersion || undefined,
          });
          return sdk;
        })
        .catch(() => null)
    : Promise.resolve(null);

  const analytics: Promise<AnalyticsSdk | null> = withAnalytics
    ? loaders
        .analytics()
        .then((sdk) => {
          sdk.load(
            settings.analyticsWriteKey,
            settings.analyticsDataPlaneUrl,
            analyticsLoadOptions(settings),
          );
          return sdk;
        })
        .catch((error: unknown) => {
          errors.then((sdk) => sdk?.captureException(error)).catch(() => {});
          return null;
        })
    : Promise.resolve(null);
  const withSdk = (use: (sdk: AnalyticsSdk) => void) => {
    void analytics.then((sdk) => sdk && quietly(() => use(sdk)));
  };
  const clickListener = createClickTracker((clickId) =>
    withSdk((sdk) => sdk.track('click', { clickId })),
  );
  if (withAnalytics) doc.addEventListener('click', clickListener, true);

  const telemetry: Telemetry = {
    track: (event, properties) => withSdk((sdk) => sdk.track(event, properties)),
    page: (path) => withSdk((sdk) => sdk.page(undefined, { path })),
    identify: (userId, traits) => withSdk((sdk) => sdk.identify(userId, traits)),
    reportError: (error) => {
      void errors.then((sdk) => sdk && quietly(() => sdk.captureException(error)));
    },
    stop: () => doc.removeEventListener('click', clickListener, true),
  };
  active = telemetry;
  if (utmVisit) telemetry.track('utm', readAttribution('source'));
  return telemetry;
}

function quietlyValue<T>(action: () => T, fallback: T): T {
  try {
    return action();
  } catch {
    return fallback;
  }
}

/** Tests only. */
export function stopTelemetry(): void {
  active?.stop();
  active = null;
}

export function trackEvent(event: string, properties?: Record<string, unknown>): void {
  active?.track(event, properties);
}

export function trackPage(path: string): void {
  active?.page(path);
}

export function reportError(error: unknown): void {
  active?.reportError(error);
}

export function reportClusterInfo(clusterId: string): void {
  if (clusterId) active?.track('cluster_info', { clusterId });
}

/** A Unix timestamp in seconds, as ISO time ('' when unknown). */
export function isoFromUnixSeconds(seconds: number | undefined): string {
  return typeof seconds === 'number' && Number.isFinite(seconds)
    ? new Date(seconds * 1000).toISOString()
    : '';
}

let lastAuthenticated = '';

/** The authenticated event (once per account and page load): created time, {email}, id, attribution. */
export function reportAuthenticated(account: {
  id: string;
  email: string;
  createdSeconds?: number;
}): void {
  if (!active || !account.id || lastAuthenticated === account.id) return;
  lastAuthenticated = account.id;
  const created = isoFromUnixSeconds(account.createdSeconds);
  active.identify(account.id, { email: account.email, createdAt: created });
  active.track('authenticated', {
    createdAt: created,
    email: account.email,
    id: account.id,
    ...allAttribution(),
  });
}
