import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RouteTabs, Tabs, type TabItem } from './Tabs';

const TABS: TabItem[] = [
  { id: 'info', label: 'Info' },
  { id: 'spec', label: 'Spec', disabled: true },
  { id: 'logs', label: 'Logs' },
  { id: 'jobs', label: 'Jobs' },
];

function LocalTabs() {
  const [selectedId, setSelectedId] = useState('info');
  return (
    <Tabs aria-label="Pipeline" tabs={TABS} selectedId={selectedId} onSelect={setSelectedId}>
      Content of {selectedId}
    </Tabs>
  );
}

describe('Tabs', () => {
  it('has one tab stop on the selected tab and a panel labelled by it', async () => {
    const user = userEvent.setup();
    render(<LocalTabs />);
    const info = screen.getByRole('tab', { name: 'Info' });
    expect(screen.getByRole('tablist', { name: 'Pipeline' })).toBeInTheDocument();
    expect(info).toHaveAttribute('aria-selected', 'true');
    expect(info).toHaveAttribute('tabindex', '0');
    expect(screen.getByRole('tab', { name: 'Logs' })).toHaveAttribute('tabindex', '-1');
    expect(screen.getByRole('tabpanel', { name: 'Info' })).toHaveTextContent('Content of info');

    await user.tab();
    expect(info).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('tabpanel')).toHaveFocus();
  });

  it('moves with Right/Left (wrapping, skipping disabled tabs) and Home/End', async () => {
    const user = userEvent.setup();
    render(<LocalTabs />);
    await user.tab();

    await user.keyboard('{ArrowRight}');
    const logs = screen.getByRole('tab', { name: 'Logs' });
    expect(logs).toHaveFocus();
    expect(logs).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Spec' })).toHaveAttribute('aria-disabled', 'true');

    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Info' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Jobs' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('tab', { name: 'Info' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{End}');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Content of jobs');
  });

  it('ignores clicks on disabled tabs', async () => {
    const user = userEvent.setup();
    render(<LocalTabs />);
    await user.click(screen.getByRole('tab', { name: 'Spec' }));
    expect(screen.getByRole('tab', { name: 'Info' })).toHaveAttribute('aria-selected', 'true');
  });
});

function CurrentPath() {
  return <output aria-label="path">{useLocation().pathname}</output>;
}

function renderRouteTabs(initialPath: string, basePath: string, tabParam?: string) {
  return render(
    <MemoryRouter initialEntries={[initialPath]}>
      <Routes>
        <Route
          path="*"
          element={
            <>
              <RouteTabs
                aria-label="Pipeline"
                basePath={basePath}
                tabParam={tabParam}
                tabs={TABS}
              />
              <CurrentPath />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

describe('RouteTabs', () => {
  it('selects the tab named by the tabId parameter and navigates with the parameter replaced', async () => {
    const user = userEvent.setup();
    renderRouteTabs(
      '/project/default/pipelines/edges/logs',
      '/project/:projectId/pipelines/:pipelineId/:tabId',
    );
    expect(screen.getByRole('tab', { name: 'Logs' })).toHaveAttribute('aria-selected', 'true');

    await user.click(screen.getByRole('tab', { name: 'Jobs' }));
    expect(screen.getByRole('status', { name: 'path' })).toHaveTextContent(
      '/project/default/pipelines/edges/jobs',
    );

    await user.keyboard('{Home}');
    expect(screen.getByRole('status', { name: 'path' })).toHaveTextContent(
      '/project/default/pipelines/edges/info',
    );
    expect(screen.getByRole('tab', { name: 'Info' })).toHaveFocus();
  });

  it('supports a custom parameter name', async () => {
    const user = userEvent.setup();
    renderRouteTabs('/repos/images/info', '/repos/:repoId/:section', 'section');
    await user.click(screen.getByRole('tab', { name: 'Logs' }));
    expect(screen.getByRole('status', { name: 'path' })).toHaveTextContent('/repos/images/logs');
  });
});
