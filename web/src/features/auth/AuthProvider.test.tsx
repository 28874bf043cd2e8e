import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testIds } from '../../test-ids.ts';
import { AccountMenu } from './AccountMenu.tsx';
import type { AuthApi, AuthConfig } from './auth-api.ts';
import { AUTH_CONFIG_RETRIES } from './api-access.ts';
import { AuthProvider } from './AuthProvider.tsx';
import { SIGN_IN_ERROR_KEY, readLoginEntry, writeLoginEntry } from './sign-in.ts';

const enabledConfig: AuthConfig = {
  authEndpoint: '/auth',
  clientId: 'console',
  pachdClientId: 'pachd',
};
const disabledConfig: AuthConfig = { authEndpoint: '', clientId: '', pachdClientId: '' };

function fakeApi(config: AuthConfig): AuthApi & { [K in keyof AuthApi]: ReturnType<typeof vi.fn> } {
  return {
    config: vi.fn(async () => config),
    exchange: vi.fn(async () => 'new-token'),
    account: vi.fn(async () => ({
      name: 'Alice Liddell',
      email: 'alice@example.com',
      id: 'alice',
    })),
  };
}

function renderAuth(api: AuthApi) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <AuthProvider api={api} issuer="http://idp.test">
        <AccountMenu />
        <h2>The app</h2>
      </AuthProvider>
    </QueryClientProvider>,
  );
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('AuthProvider', { timeout: 20_000 }, () => {
  it('auth disabled: stores an empty token, not logged in, the app proceeds without sign-in', async () => {
    const api = fakeApi(disabledConfig);
    renderAuth(api);
    expect(await screen.findByRole('heading', { name: 'The app' })).toBeInTheDocument();
    expect(localStorage.getItem('id-token')).toBe('');
    expect(screen.queryByTestId(testIds.loginScreen)).not.toBeInTheDocument();
    expect(screen.queryByTestId(testIds.accountName)).not.toBeInTheDocument();
    expect(api.account).not.toHaveBeenCalled();
  });

  it('auth enabled and no token: the login screen', async () => {
    renderAuth(fakeApi(enabledConfig));
    expect(
      await screen.findByTestId(testIds.loginScreen, {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'The app' })).not.toBeInTheDocument();
  });

  it('a stored token at start is a login: the app and the account name, account fetched once', async () => {
    localStorage.setItem('id-token', 'stored-token');
    const api = fakeApi(enabledConfig);
    renderAuth(api);
    expect(screen.getByRole('heading', { name: 'The app' })).toBeInTheDocument();
    expect(await screen.findByText('Alice Liddell')).toHaveAttribute(
      'data-testid',
      testIds.accountName,
    );
    expect(api.account).toHaveBeenCalledWith('stored-token');
    expect(api.account).toHaveBeenCalledTimes(1);
  });

  it('signs in through the popup: code → exchange → token stored → logged in', async () => {
    const user = userEvent.setup();
    const api = fakeApi(enabledConfig);
    let openedUrl = '';
    vi.spyOn(window, 'open').mockImplementation((url) => {
      openedUrl = String(url);
      return { closed: false, close: vi.fn(), focus: vi.fn() } as unknown as Window;
    });
    renderAuth(api);
    await user.click(await screen.findByTestId(testIds.signInButton, {}, { timeout: 5000 }));
    const state = new URL(openedUrl).searchParams.get('state')!;
    expect(readLoginEntry(state)).toMatchObject({ inline: false });
    act(() => writeLoginEntry(state, { page: '/', inline: false, code: 'the-code' }));
    expect(await screen.findByText('Alice Liddell', {}, { timeout: 3000 })).toHaveAttribute(
      'data-testid',
      testIds.accountName,
    );
    expect(api.exchange).toHaveBeenCalledWith(
      'the-code',
      `${window.location.origin}/oauth/callback/`,
    );
    expect(localStorage.getItem('id-token')).toBe('new-token');
    expect(localStorage.getItem('auth-token')).toBe('new-token');
  });

  it('shows a sign-in error from storage as it is', async () => {
    localStorage.setItem(SIGN_IN_ERROR_KEY, 'access_denied: End-User aborted interaction');
    renderAuth(fakeApi(enabledConfig));
    expect(await screen.findByTestId(testIds.signInError, {}, { timeout: 5000 })).toHaveTextContent(
      'access_denied: End-User aborted interaction',
    );
    expect(localStorage.getItem(SIGN_IN_ERROR_KEY)).toBeNull();
  });

  it('retries the auth config 10 times', () => {
    expect(AUTH_CONFIG_RETRIES).toBe(10);
  });
});
