import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiProvider } from '../../data/api-context.tsx';
import { createFakeApiClient } from '../../test/fake-api-client.ts';
import { repoResource, useAuthorize, useRoleBinding } from './api.ts';

function wrapperWith(client: ReturnType<typeof createFakeApiClient>) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <ApiProvider client={client}>{children}</ApiProvider>
    </QueryClientProvider>
  );
}

const handlers = {
  'auth_v2.API/Authorize': () => ({ authorized: false, missing: ['REPO_WRITE'], satisfied: [] }),
  'auth_v2.API/GetRoleBinding': () => ({ binding: { entries: {} } }),
};

afterEach(() => {
  delete window.pachDashConfig;
});

describe('roles queries', () => {
  it('with sign-in off (no issuer) everything is allowed and auth_v2 is never called', async () => {
    const client = createFakeApiClient(handlers);
    const wrapper = wrapperWith(client);
    const authorize = renderHook(() => useAuthorize(repoResource('p', 'r'), ['REPO_WRITE']), {
      wrapper,
    });
    const binding = renderHook(() => useRoleBinding(repoResource('p', 'r')), { wrapper });
    expect(authorize.result.current.allowed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(binding.result.current.fetchStatus).toBe('idle');
    expect(client.calls).toEqual([]);
  });

  it('with sign-in on, Authorize decides', async () => {
    window.pachDashConfig = { REACT_APP_RUNTIME_ISSUER_URI: 'http://idp.example' };
    const client = createFakeApiClient(handlers);
    const { result } = renderHook(() => useAuthorize(repoResource('p', 'r'), ['REPO_WRITE']), {
      wrapper: wrapperWith(client),
    });
    await waitFor(() => expect(result.current.allowed).toBe(false));
    expect(result.current.missing).toEqual(['REPO_WRITE']);
    expect(client.calls.map((c) => c.method)).toEqual(['auth_v2.API/Authorize']);
  });
});
