import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApiClient } from '../../test/fake-api-client';
import { renderApp } from '../../test/render';
import { stubViewportWidth } from '../../test/viewport';
import { testIds } from '../../test-ids';
import { Screen } from './Screen';
import { ScreenFrameContext } from './screen-frame-context';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Screen', () => {
  it('alone is the page’s main landmark with the page padding, its own style added', () => {
    stubViewportWidth(1440);
    render(
      <Screen data-testid="screen" style={{ maxWidth: 1100 }}>
        Repos
      </Screen>,
    );
    const main = screen.getByRole('main');
    expect(main).toBe(screen.getByTestId('screen'));
    expect(main).toHaveTextContent('Repos');
    expect(main).toHaveStyle({ padding: '24px', maxWidth: '1100px' });
  });

  it('alone on a 420 px window pads less', () => {
    stubViewportWidth(420);
    render(<Screen>Cluster</Screen>);
    expect(screen.getByRole('main')).toHaveStyle({ padding: '16px' });
  });

  it('inside a shell’s frame is a plain block without padding, keeping its own style', () => {
    stubViewportWidth(1440);
    render(
      <main>
        <ScreenFrameContext value={true}>
          <Screen data-testid="screen" style={{ display: 'grid' }}>
            Secrets
          </Screen>
        </ScreenFrameContext>
      </main>,
    );
    const framed = screen.getByTestId('screen');
    expect(screen.getAllByRole('main')).toHaveLength(1);
    expect(framed.tagName).toBe('DIV');
    expect(framed.style.padding).toBe('');
    expect(framed).toHaveStyle({ display: 'grid' });
  });

  it('marks a full-height screen for its frame, except on phone-sized windows', () => {
    stubViewportWidth(1440);
    const { unmount } = render(
      <ScreenFrameContext value={true}>
        <Screen data-testid="screen" fill />
      </ScreenFrameContext>,
    );
    expect(screen.getByTestId('screen')).toHaveAttribute('data-screen-fill');
    expect(screen.getByTestId('screen')).toHaveStyle({ flexGrow: '1', minHeight: '0' });
    unmount();
    vi.restoreAllMocks();
    stubViewportWidth(420);
    render(
      <ScreenFrameContext value={true}>
        <Screen data-testid="screen" fill />
      </ScreenFrameContext>,
    );
    expect(screen.getByTestId('screen')).not.toHaveAttribute('data-screen-fill');
  });
});

describe('Screens in the app', () => {
  const api = () =>
    createFakeApiClient({
      'pfs_v2.API/ListProject': () => [{ project: { name: 'default' } }],
      'pfs_v2.API/ListRepo': () => [],
      'pps_v2.API/ListPipeline': () => [],
      'pps_v2.API/ListJob': () => [],
      'pps_v2.API/ListJobSet': () => [],
    });

  it('a screen the project shell frames sits in the shell’s one main landmark', async () => {
    stubViewportWidth(1440);
    renderApp('/project/default/secrets', api());
    const shell = await screen.findByTestId(testIds.projectShell, {}, { timeout: 10_000 });
    await screen.findByRole('heading', { name: 'Secrets' }, { timeout: 10_000 });
    const main = screen.getByRole('main');
    expect(shell).toContainElement(main);
    expect(main).toContainElement(screen.getByRole('heading', { name: 'Secrets' }));
  });

  it('a screen no shell frames is its own padded main landmark', async () => {
    stubViewportWidth(1440);
    renderApp('/not-found', api());
    const notFound = await screen.findByTestId(testIds.notFound, {}, { timeout: 10_000 });
    await waitFor(() => expect(screen.getAllByRole('main')).toEqual([notFound]));
    expect(notFound).toHaveStyle({ padding: '24px' });
  });
});
