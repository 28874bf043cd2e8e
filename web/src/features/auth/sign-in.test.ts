import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthConfig } from './auth-api.ts';
import {
  POLL_INTERVAL_MS,
  SIGN_IN_ERROR_KEY,
  SignInController,
  buildAuthorizationUrl,
  generateState,
  handleOAuthCallback,
  readLoginEntry,
  redirectUri,
  writeLoginEntry,
  type SignInWindow,
} from './sign-in.ts';

const config: AuthConfig = {
  authEndpoint: '/auth',
  clientId: 'ivory-console',
  pachdClientId: 'pachd',
};
const ORIGIN = 'http://console.test:4000';

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('generateState', () => {
  it('is 20 characters from letters, digits, dash and underscore', () => {
    for (let i = 0; i < 200; i += 1) expect(generateState()).toMatch(/^[A-Za-z0-9_-]{20}$/);
  });

  it('uses crypto.getRandomValues and every symbol of the alphabet can occur', () => {
    const spy = vi.spyOn(crypto, 'getRandomValues');
    const seen = new Set<string>();
    for (let i = 0; i < 500; i += 1) for (const char of generateState()) seen.add(char);
    expect(spy).toHaveBeenCalled();
    expect(seen.size).toBe(64);
  });
});

describe('buildAuthorizationUrl', () => {
  it('is the issuer base plus authEndpoint with the sign-in parameters', () => {
    const url = new URL(
      buildAuthorizationUrl({
        issuer: 'http://idp.test/',
        config,
        origin: ORIGIN,
        state: 's1',
        inline: false,
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe('http://idp.test/auth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'ivory-console',
      redirect_uri: `${ORIGIN}/oauth/callback/`,
      response_type: 'code',
      scope: 'openid email profile',
      state: 's1',
    });
  });

  it('adds ?inline=true to the redirect URI for inline sign-in', () => {
    const url = new URL(
      buildAuthorizationUrl({
        issuer: 'http://idp.test',
        config,
        origin: ORIGIN,
        state: 's',
        inline: true,
      }),
    );
    expect(url.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/oauth/callback/?inline=true`);
    expect(redirectUri(ORIGIN, true)).toBe(`${ORIGIN}/oauth/callback/?inline=true`);
  });

  it('copies connection and login_hint from the page query, and nothing else', () => {
    const url = new URL(
      buildAuthorizationUrl({
        issuer: 'http://idp.test/realm',
        config,
        origin: ORIGIN,
        state: 's',
        inline: false,
        pageSearch: '?connection=github&login_hint=alice%40example.com&other=x',
      }),
    );
    expect(url.pathname).toBe('/realm/auth');
    expect(url.searchParams.get('connection')).toBe('github');
    expect(url.searchParams.get('login_hint')).toBe('alice@example.com');
    expect(url.searchParams.has('other')).toBe(false);
  });

  it('keeps an absolute authorization endpoint as it is', () => {
    const url = buildAuthorizationUrl({
      issuer: 'http://idp.test',
      config: { ...config, authEndpoint: 'http://other.test/authorize' },
      origin: ORIGIN,
      state: 's',
      inline: false,
    });
    expect(url.startsWith('http://other.test/authorize?')).toBe(true);
  });
});

function fakeWindow() {
  const popups: Array<{ closed: boolean; close: () => void; focus: () => void }> = [];
  const open = vi.fn((_url: string, _target: string, _features: string) => {
    const popup = {
      closed: false,
      close: vi.fn(() => {
        popup.closed = true;
      }),
      focus: vi.fn(),
    };
    popups.push(popup);
    return popup as unknown as Window;
  });
  const assign = vi.fn();
  const win: SignInWindow = {
    open,
    location: {
      assign,
      origin: ORIGIN,
      pathname: '/project/default',
      search: '?login_hint=bob',
      hash: '#x',
    },
  };
  return { win, open, assign, popups };
}

function stateOf(url: string): string {
  return new URL(url).searchParams.get('state') ?? '';
}

describe('SignInController', () => {
  it('opens one 500x500 popup named login and stores the state with the current page', () => {
    const { win, open } = fakeWindow();
    const controller = new SignInController({
      exchange: vi.fn(),
      onSignedIn: vi.fn(),
      onError: vi.fn(),
      win,
    });
    expect(controller.signIn('http://idp.test', config)).toBe('popup');
    const [url, target, features] = open.mock.calls[0]!;
    expect(target).toBe('login');
    expect(features).toMatch(/width=500,height=500/);
    expect(new URL(url).searchParams.get('login_hint')).toBe('bob');
    expect(readLoginEntry(stateOf(url))).toEqual({
      page: '/project/default?login_hint=bob#x',
      inline: false,
    });
    controller.stop();
  });

  it('never opens a second popup while the first is open', () => {
    const { win, open, popups } = fakeWindow();
    const controller = new SignInController({
      exchange: vi.fn(),
      onSignedIn: vi.fn(),
      onError: vi.fn(),
      win,
    });
    controller.signIn('http://idp.test', config);
    expect(controller.signIn('http://idp.test', config)).toBe('focused');
    expect(open).toHaveBeenCalledTimes(1);
    expect(popups[0]!.focus).toHaveBeenCalled();
    popups[0]!.closed = true;
    expect(controller.signIn('http://idp.test', config)).toBe('popup');
    expect(open).toHaveBeenCalledTimes(2);
    controller.stop();
  });

  it('polls local storage every 500 ms and exchanges the code', async () => {
    vi.useFakeTimers();
    const { win, open, popups } = fakeWindow();
    const exchange = vi.fn(async () => 'the-token');
    const onSignedIn = vi.fn();
    const controller = new SignInController({ exchange, onSignedIn, onError: vi.fn(), win });
    controller.signIn('http://idp.test', config);
    const state = stateOf(open.mock.calls[0]![0]);

    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3);
    expect(exchange).not.toHaveBeenCalled();

    writeLoginEntry(state, { page: '/', inline: false, code: 'abc' });
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS - 1);
    expect(exchange).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(exchange).toHaveBeenCalledWith('abc', `${ORIGIN}/oauth/callback/`);
    expect(onSignedIn).toHaveBeenCalledWith('the-token');
    expect(popups[0]!.close).toHaveBeenCalled();
    expect(readLoginEntry(state)).toBeNull();

    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 4);
    expect(exchange).toHaveBeenCalledTimes(1);
  });

  it('reports a stored error as it is, without exchanging', async () => {
    vi.useFakeTimers();
    const { win, open } = fakeWindow();
    const exchange = vi.fn();
    const onError = vi.fn();
    const controller = new SignInController({ exchange, onSignedIn: vi.fn(), onError, win });
    controller.signIn('http://idp.test', config);
    writeLoginEntry(stateOf(open.mock.calls[0]![0]), {
      page: '/',
      inline: false,
      error: 'access_denied: nope',
    });
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(onError).toHaveBeenCalledWith('access_denied: nope');
    expect(exchange).not.toHaveBeenCalled();
  });

  it('reports a failed exchange with the server message', async () => {
    vi.useFakeTimers();
    const { win, open } = fakeWindow();
    const onError = vi.fn();
    const controller = new SignInController({
      exchange: vi.fn(async () => {
        throw new Error('invalid_grant');
      }),
      onSignedIn: vi.fn(),
      onError,
      win,
    });
    controller.signIn('http://idp.test', config);
    writeLoginEntry(stateOf(open.mock.calls[0]![0]), { page: '/', inline: false, code: 'c' });
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(onError).toHaveBeenCalledWith('invalid_grant');
  });

  it('navigates inline with the inline redirect URI', () => {
    const { win, open, assign } = fakeWindow();
    const controller = new SignInController({
      exchange: vi.fn(),
      onSignedIn: vi.fn(),
      onError: vi.fn(),
      win,
    });
    expect(controller.signIn('http://idp.test', config, { inline: true })).toBe('inline');
    expect(open).not.toHaveBeenCalled();
    const url = new URL(assign.mock.calls[0]![0] as string);
    expect(url.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/oauth/callback/?inline=true`);
    expect(readLoginEntry(url.searchParams.get('state')!)).toMatchObject({ inline: true });
  });

  it('falls back to inline navigation when the popup is blocked', () => {
    const { win, assign } = fakeWindow();
    win.open = vi.fn(() => null);
    const controller = new SignInController({
      exchange: vi.fn(),
      onSignedIn: vi.fn(),
      onError: vi.fn(),
      win,
    });
    expect(controller.signIn('http://idp.test', config)).toBe('inline');
    expect(assign).toHaveBeenCalledTimes(1);
  });
});

describe('handleOAuthCallback', () => {
  const deps = () => ({
    exchange: vi.fn(async () => 'tok'),
    saveToken: vi.fn(),
    close: vi.fn(),
    replace: vi.fn(),
    origin: ORIGIN,
  });

  it('popup: stores the code under the state and closes itself', async () => {
    writeLoginEntry('st', { page: '/repos', inline: false });
    const d = deps();
    expect(await handleOAuthCallback('?code=c1&state=st', d)).toEqual({ kind: 'stored' });
    expect(readLoginEntry('st')).toEqual({ page: '/repos', inline: false, code: 'c1' });
    expect(d.close).toHaveBeenCalled();
    expect(d.exchange).not.toHaveBeenCalled();
  });

  it('popup: stores the error and its description', async () => {
    writeLoginEntry('st', { page: '/', inline: false });
    const d = deps();
    await handleOAuthCallback(
      '?error=access_denied&error_description=End-User+aborted&state=st',
      d,
    );
    expect(readLoginEntry('st')?.error).toBe('access_denied: End-User aborted');
    expect(d.close).toHaveBeenCalled();
  });

  it('inline: exchanges the code with the inline redirect URI and goes back to the stored page', async () => {
    writeLoginEntry('st', { page: '/project/x?y=1', inline: true });
    const d = deps();
    expect(await handleOAuthCallback('?inline=true&code=c2&state=st', d)).toEqual({
      kind: 'signed-in',
      page: '/project/x?y=1',
    });
    expect(d.exchange).toHaveBeenCalledWith('c2', `${ORIGIN}/oauth/callback/?inline=true`);
    expect(d.saveToken).toHaveBeenCalledWith('tok');
    expect(d.replace).toHaveBeenCalledWith('/project/x?y=1');
    expect(readLoginEntry('st')).toBeNull();
    expect(d.close).not.toHaveBeenCalled();
  });

  it('inline: an error is left for the login screen and the user goes back', async () => {
    writeLoginEntry('st', { page: '/p', inline: true });
    const d = deps();
    await handleOAuthCallback('?inline=true&error=login_required&state=st', d);
    expect(localStorage.getItem(SIGN_IN_ERROR_KEY)).toBe('login_required');
    expect(d.replace).toHaveBeenCalledWith('/p');
    expect(d.saveToken).not.toHaveBeenCalled();
  });

  it('an unknown state is an error shown on the page', async () => {
    const d = deps();
    const result = await handleOAuthCallback('?code=c&state=unknown', d);
    expect(result.kind).toBe('error');
    expect(d.close).not.toHaveBeenCalled();
    expect(d.exchange).not.toHaveBeenCalled();
  });
});
