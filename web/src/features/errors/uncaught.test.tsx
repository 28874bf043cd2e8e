import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@ivory/api';
import { testIds } from '../../test-ids.ts';
import { CONNECTIVITY_MESSAGE } from './error-types.ts';
import { UncaughtErrorGate } from './UncaughtErrorGate.tsx';
import { uncaughtErrorView } from './uncaught.ts';

afterEach(() => vi.restoreAllMocks());

describe('uncaughtErrorView', () => {
  it.each([
    'TypeError: Failed to fetch',
    'A network error occurred',
    'ensure repo exists: repo images not found',
  ])('ignores %j', (message) => {
    expect(uncaughtErrorView(new Error(message))).toBeNull();
    expect(uncaughtErrorView(message)).toBeNull();
  });

  it('shows "Uncaught error: {message}" with source and stack', () => {
    const error = new Error('kaboom');
    expect(uncaughtErrorView(error, 'app.js:1:2')).toMatchObject({
      type: 'GENERIC',
      message: 'Uncaught error: kaboom',
      source: 'app.js:1:2',
      stack: error.stack,
    });
  });

  it.each([
    new ApiError(12, 'unimplemented'),
    new Error('no healthy upstream'),
    'upstream connect error or disconnect',
  ])('connectivity errors show "Unable to connect to API"', (error) => {
    expect(uncaughtErrorView(error)).toEqual({ type: 'GENERIC', message: CONNECTIVITY_MESSAGE });
  });
});

describe('UncaughtErrorGate', { timeout: 20_000 }, () => {
  function renderGate() {
    const router = createMemoryRouter(
      [
        {
          path: '/',
          element: (
            <UncaughtErrorGate>
              <h1>App</h1>
            </UncaughtErrorGate>
          ),
        },
        {
          path: '/flows',
          element: (
            <UncaughtErrorGate>
              <h1>Home</h1>
            </UncaughtErrorGate>
          ),
        },
      ],
      { initialEntries: ['/'] },
    );
    render(<RouterProvider router={router} />);
    return router;
  }

  it('a window error shows the error screen; Go Back Home goes to /flows', async () => {
    const router = renderGate();
    const error = new Error('render exploded');
    act(() => {
      window.dispatchEvent(
        new ErrorEvent('error', {
          error,
          message: error.message,
          filename: 'main.js',
          lineno: 3,
          colno: 4,
        }),
      );
    });
    expect(
      await screen.findByText('Uncaught error: render exploded', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('Source: main.js:3:4')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId(testIds.errorHomeButton));
    expect(router.state.location.pathname).toBe('/flows');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
  });

  it('an unhandled rejection shows the error screen', async () => {
    renderGate();
    act(() => {
      const event = new Event('unhandledrejection') as PromiseRejectionEvent;
      Object.assign(event, { reason: new Error('async failure') });
      window.dispatchEvent(event);
    });
    expect(
      await screen.findByText('Uncaught error: async failure', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
  });

  it('ignored messages keep the app rendering', () => {
    renderGate();
    act(() => {
      window.dispatchEvent(new ErrorEvent('error', { message: 'Failed to fetch' }));
    });
    expect(screen.getByRole('heading', { name: 'App' })).toBeInTheDocument();
  });
});
