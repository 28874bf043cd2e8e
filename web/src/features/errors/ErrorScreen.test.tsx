import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '@ivory/api';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { testIds } from '../../test-ids.ts';
import { ErrorScreen } from './ErrorScreen.tsx';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';
import {
  CONNECTIVITY_MESSAGE,
  ERROR_MESSAGES,
  errorViewOf,
  type ErrorView,
} from './error-types.ts';

function renderAt(element: React.ReactNode) {
  const router = createMemoryRouter(
    [
      { path: '/', element, errorElement: <RouteErrorBoundary /> },
      { path: '/flows', element: <h1>Home</h1> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

function Thrower({ error }: { error: unknown }): React.ReactNode {
  throw error;
}

describe('ErrorScreen', () => {
  const views: Array<[string, ErrorView]> = [
    ['NOT_FOUND', { type: 'NOT_FOUND', message: ERROR_MESSAGES.NOT_FOUND }],
    [
      'RESOURCE_NOT_FOUND',
      { type: 'RESOURCE_NOT_FOUND', message: ERROR_MESSAGES.RESOURCE_NOT_FOUND },
    ],
    [
      'GENERIC',
      {
        type: 'GENERIC',
        message: ERROR_MESSAGES.GENERIC,
        details: ['detail one'],
        source: 'src',
        stack: 'at x',
      },
    ],
  ];

  it.each(views)(
    '%s shows its message and a Go Back Home button to /flows',
    async (_type, view) => {
      const router = renderAt(<ErrorScreen {...view} />);
      expect(screen.getByText(view.message)).toBeInTheDocument();
      expect(document.title).toBe('Console - Error');
      for (const detail of view.details ?? []) expect(screen.getByText(detail)).toBeInTheDocument();
      if (view.source) expect(screen.getByText(`Source: ${view.source}`)).toBeInTheDocument();
      if (view.stack) expect(screen.getByText(view.stack)).toBeInTheDocument();
      await userEvent.click(screen.getByTestId(testIds.errorHomeButton));
      expect(router.state.location.pathname).toBe('/flows');
    },
  );

  it('UNAUTHENTICATED hides Go Back Home', () => {
    renderAt(<ErrorScreen type="UNAUTHENTICATED" message={ERROR_MESSAGES.UNAUTHENTICATED} />);
    expect(screen.getByText('Unable to authenticate. Try again later.')).toBeInTheDocument();
    expect(screen.queryByTestId(testIds.errorHomeButton)).not.toBeInTheDocument();
  });
});

describe('errorViewOf', () => {
  it.each<[string, unknown, Partial<ErrorView>]>([
    [
      'code 16 with a server message',
      new ApiError(16, 'token expired'),
      { type: 'UNAUTHENTICATED', message: 'token expired' },
    ],
    [
      'code 16 without a message',
      new ApiError(16, ''),
      { type: 'UNAUTHENTICATED', message: ERROR_MESSAGES.UNAUTHENTICATED },
    ],
    [
      'not found',
      new ApiError(5, 'repo x not found'),
      { type: 'RESOURCE_NOT_FOUND', message: ERROR_MESSAGES.RESOURCE_NOT_FOUND },
    ],
    [
      'connectivity',
      new Error('no healthy upstream'),
      { type: 'GENERIC', message: CONNECTIVITY_MESSAGE },
    ],
    [
      'anything else',
      new ApiError(2, 'boom', ['d1']),
      { type: 'GENERIC', message: ERROR_MESSAGES.GENERIC, source: 'boom', details: ['d1'] },
    ],
  ])('%s', (_name, err, expected) => {
    expect(errorViewOf(err)).toMatchObject(expected);
  });
});

describe('RouteErrorBoundary', () => {
  it('maps a thrown API error with classifyError', async () => {
    renderAt(<Thrower error={new ApiError(5, 'commit abc not found')} />);
    expect(await screen.findByText(ERROR_MESSAGES.RESOURCE_NOT_FOUND)).toBeInTheDocument();
  });

  it('shows "Unable to connect to API" for connectivity errors', async () => {
    renderAt(<Thrower error={new ApiError(12, 'upstream connect error')} />);
    expect(await screen.findByText(CONNECTIVITY_MESSAGE)).toBeInTheDocument();
  });
});
