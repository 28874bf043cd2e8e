import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getCookie } from '../auth/cookies.ts';
import { readAttribution, writeAttributionCookies } from './attribution.ts';
import { CLICK_THROTTLE_MS, createClickTracker } from './click-tracking.ts';
import { analyticsLoadOptions, readTelemetrySettings, type TelemetrySettings } from './settings.ts';
import {
  isoFromUnixSeconds,
  reportAuthenticated,
  reportClusterInfo,
  reportError,
  startTelemetry,
  stopTelemetry,
  telemetryActive,
  trackPage,
  type AnalyticsSdk,
  type ErrorReportingSdk,
} from './telemetry.ts';

function clearCookies() {
  for (const part of document.cookie.split('; ')) {
    const name = part.split('=')[0];
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

const configured: TelemetrySettings = {
  disabled: false,
  analyticsWriteKey: 'key',
  analyticsDataPlaneUrl: 'https://dataplane.test',
  analyticsConfigUrl: '',
  analyticsSourceConfig: '',
  errorReportingDsn: 'https://public@sentry.test/1',
  releaseVersion: '1.2.3',
};

function fakeLoaders() {
  const sdk = { load: vi.fn(), track: vi.fn(), page: vi.fn(), identify: vi.fn() };
  const sentry = { init: vi.fn(), captureException: vi.fn() };
  return {
    sdk,
    sentry,
    loaders: {
      analytics: vi.fn(async (): Promise<AnalyticsSdk> => sdk),
      errorReporting: vi.fn(async (): Promise<ErrorReportingSdk> => sentry),
    },
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  clearCookies();
  window.history.replaceState(null, '', '/');
});
afterEach(() => {
  stopTelemetry();
  vi.restoreAllMocks();
});

describe('attribution cookies', () => {
  it('writes latest_ every visit and source_ only when not set', () => {
    expect(writeAttributionCookies('?utm_source=google&utm_campaign=spring')).toBe(true);
    expect(getCookie('source_utm_source')).toBe('google');
    expect(getCookie('latest_utm_source')).toBe('google');
    expect(getCookie('source_utm_campaign')).toBe('spring');

    writeAttributionCookies('?utm_source=newsletter&utm_medium=email&utm_content=a&utm_term=b');
    expect(getCookie('source_utm_source')).toBe('google');
    expect(getCookie('latest_utm_source')).toBe('newsletter');
    expect(getCookie('source_utm_medium')).toBe('email');
    expect(readAttribution('latest')).toEqual({
      latest_utm_campaign: 'spring',
      latest_utm_source: 'newsletter',
      latest_utm_medium: 'email',
      latest_utm_content: 'a',
      latest_utm_term: 'b',
    });
  });

  it('writes nothing without utm_ values', () => {
    expect(writeAttributionCookies('?other=1')).toBe(false);
    expect(document.cookie).toBe('');
  });

  it('cookies last 365 days', () => {
    const writes: string[] = [];
    Object.defineProperty(document, 'cookie', {
      configurable: true,
      get: () => '',
      set: (value: string) => writes.push(value),
    });
    try {
      const now = Date.UTC(2025, 5, 1);
      vi.spyOn(Date, 'now').mockReturnValue(now);
      writeAttributionCookies('?utm_term=x');
      const expires = new Date(now + 365 * 86_400_000).toUTCString();
      expect(writes).toEqual([
        `latest_utm_term=x; expires=${expires}; path=/; SameSite=Lax`,
        `source_utm_term=x; expires=${expires}; path=/; SameSite=Lax`,
      ]);
    } finally {
      delete (document as unknown as Record<string, unknown>).cookie;
    }
  });
});

describe('self-hosted analytics settings', () => {
  it('reads the control plane URL and a local source configuration', () => {
    const settings = readTelemetrySettings({
      REACT_APP_RUDDERSTACK_WRITE_KEY: 'key',
      REACT_APP_RUDDERSTACK_DATA_PLANE_URL: 'http://rudder.internal:8080',
      REACT_APP_RUDDERSTACK_CONFIG_URL: ' http://rudder-config.internal:5000 ',
      REACT_APP_RUDDERSTACK_SOURCE_CONFIG: '{"source":{"id":"s"}}',
    });
    expect(settings.analyticsConfigUrl).toBe('http://rudder-config.internal:5000');
    const options = analyticsLoadOptions(settings);
    expect(options.configUrl).toBe('http://rudder-config.internal:5000');
    expect((options.getSourceConfig as () => string)()).toBe('{"source":{"id":"s"}}');
    expect(options.polyfillIfRequired).toBe(false);
  });

  it("leaves the SDK's defaults alone when neither is set", () => {
    const options = analyticsLoadOptions(configured);
    expect(options).toEqual({ logLevel: 'NONE', polyfillIfRequired: false });
  });
});

describe('click tracking', () => {
  function clickOn(element: Element) {
    return { target: element } as unknown as Event;
  }

  it('sends the clicked element test id, at most one per 500 ms', () => {
    let now = 1000;
    const send = vi.fn();
    const track = createClickTracker(send, () => now);
    const outer = document.createElement('div');
    outer.setAttribute('data-testid', 'outer');
    const inner = document.createElement('span');
    outer.append(inner);
    const plain = document.createElement('p');

    track(clickOn(inner));
    expect(send).toHaveBeenLastCalledWith('outer');
    now += CLICK_THROTTLE_MS - 1;
    track(clickOn(outer));
    expect(send).toHaveBeenCalledTimes(1);
    now += 1;
    track(clickOn(outer));
    expect(send).toHaveBeenCalledTimes(2);
    now += 10_000;
    track(clickOn(plain));
    expect(send).toHaveBeenCalledTimes(2);
    expect(CLICK_THROTTLE_MS).toBe(500);
  });
});

describe('telemetry', () => {
  it('reads its settings from window.pachDashConfig', () => {
    expect(
      readTelemetrySettings({
        REACT_APP_RUNTIME_DISABLE_TELEMETRY: 'true',
        REACT_APP_RUDDERSTACK_WRITE_KEY: 'k',
        REACT_APP_RUDDERSTACK_DATA_PLANE_URL: 'u',
        REACT_APP_SENTRY_DSN: 'd',
      }),
    ).toMatchObject({
      disabled: true,
      analyticsWriteKey: 'k',
      analyticsDataPlaneUrl: 'u',
      errorReportingDsn: 'd',
    });
    expect(readTelemetrySettings(undefined)).toMatchObject({
      disabled: false,
      analyticsWriteKey: '',
    });
  });

  it('disabled: nothing imported, nothing sent, no cookies written', async () => {
    const { loaders } = fakeLoaders();
    window.history.replaceState(null, '', '/?utm_source=x');
    expect(startTelemetry({ ...configured, disabled: true }, loaders)).toBeNull();
    trackPage('/x');
    reportError(new Error('e'));
    reportClusterInfo('c');
    document.body.click();
    await flush();
    expect(loaders.analytics).not.toHaveBeenCalled();
    expect(loaders.errorReporting).not.toHaveBeenCalled();
    expect(telemetryActive()).toBe(false);
    expect(document.cookie).toBe('');
  });

  it('no destination configured: nothing imported or sent', async () => {
    const { loaders } = fakeLoaders();
    expect(
      startTelemetry({ ...configured, analyticsWriteKey: '', errorReportingDsn: '' }, loaders),
    ).toBeNull();
    await flush();
    expect(loaders.analytics).not.toHaveBeenCalled();
    expect(loaders.errorReporting).not.toHaveBeenCalled();
  });

  it('never imports the SDK modules statically', async () => {
    const rudder = vi.fn();
    vi.doMock('@rudderstack/analytics-js', () => {
      rudder();
      return {};
    });
    vi.resetModules();
    const module = await import('./telemetry.ts');
    module.startTelemetry({ ...configured, disabled: true });
    await flush();
    expect(rudder).not.toHaveBeenCalled();
    vi.doUnmock('@rudderstack/analytics-js');
  });

  it('configured: loads the SDKs and sends page, click, cluster_info, utm and authenticated events', async () => {
    window.history.replaceState(null, '', '/?utm_source=google&utm_campaign=c1');
    const { sdk, sentry, loaders } = fakeLoaders();
    startTelemetry(configured, loaders);
    await flush();
    expect(sdk.load).toHaveBeenCalledWith('key', 'https://dataplane.test', expect.any(Object));
    expect(sentry.init).toHaveBeenCalledWith(
      expect.objectContaining({ dsn: 'https://public@sentry.test/1', release: '1.2.3' }),
    );
    expect(sdk.track).toHaveBeenCalledWith('utm', {
      source_utm_source: 'google',
      source_utm_campaign: 'c1',
    });

    trackPage('/project/default');
    reportClusterInfo('cluster-1');
    const button = document.createElement('button');
    button.setAttribute('data-testid', 'connect-button');
    document.body.append(button);
    button.click();
    button.click();
    reportAuthenticated({ id: 'alice', email: 'alice@example.com', createdSeconds: 1_700_000_000 });
    reportError(new Error('boom'));
    await flush();

    expect(sdk.page).toHaveBeenCalledWith(undefined, { path: '/project/default' });
    expect(sdk.track).toHaveBeenCalledWith('cluster_info', { clusterId: 'cluster-1' });
    expect(sdk.track.mock.calls.filter(([event]) => event === 'click')).toEqual([
      ['click', { clickId: 'connect-button' }],
    ]);
    expect(sdk.track).toHaveBeenCalledWith('authenticated', {
      createdAt: '2023-11-14T22:13:20.000Z',
      email: 'alice@example.com',
      id: 'alice',
      source_utm_source: 'google',
      source_utm_campaign: 'c1',
      latest_utm_source: 'google',
      latest_utm_campaign: 'c1',
    });
    expect(sentry.captureException).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'boom' }),
    );
    button.remove();
  });

  it('SDK failures never reach the user', async () => {
    const { sdk, loaders } = fakeLoaders();
    sdk.track.mockImplementation(() => {
      throw new Error('sdk broke');
    });
    loaders.errorReporting.mockRejectedValue(new Error('blocked by the browser'));
    startTelemetry(configured, loaders);
    expect(() => reportClusterInfo('c')).not.toThrow();
    expect(() => reportError(new Error('x'))).not.toThrow();
    await flush();
  });

  it('converts Unix seconds to ISO time', () => {
    expect(isoFromUnixSeconds(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(isoFromUnixSeconds(undefined)).toBe('');
  });
});
