import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OAuthCallbackScreen } from './OAuthCallbackScreen.tsx';
import { readLoginEntry, writeLoginEntry } from './sign-in.ts';

afterEach(() => {
  window.history.replaceState(null, '', '/');
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('OAuthCallbackScreen', { timeout: 20_000 }, () => {
  it('stores the code under the state and closes the popup', async () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    writeLoginEntry('abc', { page: '/flows', inline: false });
    window.history.replaceState(null, '', '/oauth/callback/?code=c1&state=abc');
    render(<OAuthCallbackScreen />);
    expect(screen.getByRole('heading', { name: 'Signing In', level: 2 })).toBeInTheDocument();
    await vi.waitFor(() => expect(close).toHaveBeenCalled());
    expect(readLoginEntry('abc')).toEqual({ page: '/flows', inline: false, code: 'c1' });
  });

  it('stores the error under the state', async () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    writeLoginEntry('abc', { page: '/', inline: false });
    window.history.replaceState(null, '', '/oauth/callback/?error=access_denied&state=abc');
    render(<OAuthCallbackScreen />);
    await vi.waitFor(() => expect(close).toHaveBeenCalled());
    expect(readLoginEntry('abc')?.error).toBe('access_denied');
  });
});
