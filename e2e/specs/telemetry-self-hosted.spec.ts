import { expect, test, type Page } from '@playwright/test';
import type { ServerProcess } from '../../server/test/helpers/server-process.ts';
import {
  sourceConfig,
  startAnalyticsReceiver,
  type AnalyticsReceiver,
} from '../support/analytics-receiver.ts';
import { TEST_ACCOUNT, completeIdpSignIn, startAuthStack } from '../support/auth-server.ts';
import { startSpecServer, stopSpecServer } from '../support/spec-server.ts';

// Product analytics against a self-hosted RudderStack: a local receiver plays both the control
// plane (source configuration) and the data plane (events). Every event of the spec arrives with
// its fields; nothing goes anywhere else; with telemetry disabled nothing is requested at all.
const WRITE_KEY = 'ivory-local-write-key';

type Event = Record<string, unknown> & { properties?: Record<string, unknown> };

const tracked = (receiver: AnalyticsReceiver, name: string): Event[] =>
  receiver.events().filter((e) => e.type === 'track' && e.event === name) as Event[];
const pages = (receiver: AnalyticsReceiver): Event[] =>
  receiver.events().filter((e) => e.type === 'page') as Event[];

/**
 * Every host the console's pages asked for besides the allowed origins (the identity provider's
 * own sign-in page, which loads web fonts, is not the console's).
 */
function foreignRequests(page: Page, allowed: string[], appOrigin: string): string[] {
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!page.url().startsWith(appOrigin)) return;
    const origin = new URL(request.url()).origin;
    if (!request.url().startsWith('data:') && !allowed.includes(origin)) foreign.push(origin);
  });
  return foreign;
}

test('a control plane URL on the local network: utm, authenticated, cluster_info, page and click arrive', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const receiver = await startAnalyticsReceiver(WRITE_KEY);
  const stack = await startAuthStack({
    IVORY_DISABLE_TELEMETRY: 'false',
    IVORY_RUDDERSTACK_WRITE_KEY: WRITE_KEY,
    IVORY_RUDDERSTACK_DATA_PLANE_URL: receiver.url,
    IVORY_RUDDERSTACK_CONFIG_URL: receiver.url,
  });
  try {
    const foreign = foreignRequests(
      page,
      [stack.origin, stack.idp.issuer, receiver.url],
      stack.origin,
    );
    await page.goto(`${stack.origin}/flows?utm_source=newsletter&utm_campaign=spring`);
    await expect(page.getByTestId('login-screen')).toBeVisible();
    await expect.poll(() => tracked(receiver, 'utm').length).toBeGreaterThan(0);
    expect(tracked(receiver, 'utm')[0]!.properties).toEqual({
      source_utm_source: 'newsletter',
      source_utm_campaign: 'spring',
    });
    // The SDK asked the configured control plane for its source configuration.
    const configRequest = receiver.requests.find((r) => r.url.startsWith('/sourceConfig'));
    expect(new URL(configRequest!.url, receiver.url).searchParams.get('writeKey')).toBe(WRITE_KEY);

    await page.getByTestId('sign-in-inline').click();
    await page.waitForURL((url) => url.origin !== stack.origin);
    await completeIdpSignIn(page);
    await expect(page.getByTestId('account-name')).toHaveText(TEST_ACCOUNT.name);

    await expect.poll(() => tracked(receiver, 'authenticated').length).toBe(1);
    const authenticated = tracked(receiver, 'authenticated')[0]!.properties!;
    expect(authenticated.email).toBe(TEST_ACCOUNT.email);
    expect(typeof authenticated.id).toBe('string');
    expect(authenticated.id).not.toBe('');
    expect(authenticated.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(authenticated).toMatchObject({
      source_utm_source: 'newsletter',
      source_utm_campaign: 'spring',
      latest_utm_source: 'newsletter',
      latest_utm_campaign: 'spring',
    });

    await expect.poll(() => tracked(receiver, 'cluster_info').length).toBeGreaterThan(0);
    const clusterId = tracked(receiver, 'cluster_info')[0]!.properties!.clusterId;
    expect(typeof clusterId).toBe('string');
    expect(clusterId).not.toBe('');

    await expect.poll(() => pages(receiver).map((e) => e.properties?.path)).toContain('/flows');

    await page.getByTestId('connect-button').click();
    await expect
      .poll(() => tracked(receiver, 'click').map((e) => e.properties?.clickId))
      .toContain('connect-button');

    // Every event carries the write key's source (the SDK's Basic auth) and an anonymous id.
    for (const event of receiver.events()) expect(event.anonymousId).toBeTruthy();
    expect(foreign).toEqual([]);
  } finally {
    await stack.stop();
    await receiver.stop();
  }
});

test('the source configuration given locally: no control plane is asked', async ({ page }) => {
  test.setTimeout(90_000);
  const receiver = await startAnalyticsReceiver(WRITE_KEY);
  let server: ServerProcess | undefined;
  try {
    server = await startSpecServer({
      IVORY_RUDDERSTACK_WRITE_KEY: WRITE_KEY,
      IVORY_RUDDERSTACK_DATA_PLANE_URL: receiver.url,
      IVORY_RUDDERSTACK_SOURCE_CONFIG: JSON.stringify(sourceConfig(WRITE_KEY)),
    });
    const foreign = foreignRequests(page, [server.url, receiver.url], server.url);
    await page.goto(`${server.url}/bolt?utm_source=local`);
    await expect(page.getByRole('heading', { name: 'Bolts', level: 2 })).toBeVisible();
    await expect.poll(() => pages(receiver).map((e) => e.properties?.path)).toContain('/bolt');
    await expect.poll(() => tracked(receiver, 'utm').length).toBe(1);
    await expect.poll(() => tracked(receiver, 'cluster_info').length).toBeGreaterThan(0);
    expect(receiver.requests.filter((r) => r.url.startsWith('/sourceConfig'))).toEqual([]);
    expect(foreign).toEqual([]);
  } finally {
    await stopSpecServer(server);
    await receiver.stop();
  }
});

test('with telemetry disabled nothing is requested at all', async ({ page }) => {
  test.setTimeout(90_000);
  const receiver = await startAnalyticsReceiver(WRITE_KEY);
  let server: ServerProcess | undefined;
  try {
    server = await startSpecServer({
      IVORY_DISABLE_TELEMETRY: 'true',
      IVORY_RUDDERSTACK_WRITE_KEY: WRITE_KEY,
      IVORY_RUDDERSTACK_DATA_PLANE_URL: receiver.url,
      IVORY_RUDDERSTACK_CONFIG_URL: receiver.url,
    });
    const foreign = foreignRequests(page, [server.url], server.url);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(`${server.url}/bolt?utm_source=nowhere`);
    await expect(page.getByRole('heading', { name: 'Bolts', level: 2 })).toBeVisible();
    await page.getByTestId('connect-button').click();
    await page.goto(`${server.url}/setup`);
    await expect(page.getByRole('heading', { name: 'Setup', level: 2 })).toBeVisible();
    await page.waitForTimeout(1500);
    expect(receiver.requests).toEqual([]);
    expect(foreign).toEqual([]);
    // The analytics SDK is not even loaded, and no attribution cookie is written.
    expect(scripts.filter((url) => /analytics|rudder/i.test(url))).toEqual([]);
    const cookies = await page.context().cookies(server.url);
    expect(cookies.filter((c) => c.name.includes('utm'))).toEqual([]);
  } finally {
    await stopSpecServer(server);
    await receiver.stop();
  }
});
