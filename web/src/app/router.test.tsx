import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/render.tsx';

const headingCases: Array<[string, string]> = [
  ['/case/x', 'Case'],
  ['/case', 'Cases'],
  ['/flow', 'Flows'],
  ['/flow/abc', 'Flow'],
  ['/setup', 'Setup'],
  ['/bolt', 'Bolts'],
  ['/updatebolt/images', 'Upload Files'],
  ['/project/default/repos/images/upload', 'Upload Files'],
  ['/project/default/pipelines', 'Pipelines'],
  ['/project/default/pipelines/info', 'Pipelines'],
  ['/project/default/jobs/subjobs', 'Sub-jobs'],
  ['/project/default/jobs', 'Jobs'],
  ['/project/default/defaults', 'Project Defaults'],
  ['/project/default/logs/pipelines/edges/logs', 'Pipeline Logs'],
  ['/project/default/pipelines/edges/jobs/j1/logs', 'Job Logs'],
  ['/project/default/pipelines/edges/jobs/j1/logs/datum/d1', 'Job Logs'],
  ['/project/default/jobs/j1/pipeline/edges/logs/datum/d1', 'Job Logs'],
  ['/lineage/default', 'Lineage'],
  ['/lineage/default/repos/images', 'Lineage'],
  ['/lineage/default/pipelines/edges', 'Lineage'],
  ['/lineage/default/pipelines/edges/spec', 'Lineage'],
  ['/project/default/secrets', 'Secrets'],
  ['/lineage/default/pipelines/edges/jobs/j1/logs', 'Job Logs'],
  ['/lineage/default/create/pipeline', 'Pipeline Editor'],
  ['/lineage/default/update/pipeline/edges', 'Pipeline Editor'],
  ['/lineage/default/duplicate/pipeline/edges', 'Pipeline Editor'],
  ['/oauth/callback', 'Signing In'],
];

describe('route table', () => {
  it.each(headingCases)('%s opens the %s screen', async (path, heading) => {
    renderApp(path);
    expect(await screen.findByRole('heading', { name: heading, level: 2 })).toBeInTheDocument();
  });

  it('shows the not-found page at an unknown path, keeping the address', async () => {
    const { router } = renderApp('/nope/at/all');
    expect(await screen.findByText('404: Page Not Found')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/nope/at/all');
  });

  it('opens the project screen on its repos tab', async () => {
    const { router } = renderApp('/project/default');
    expect(await screen.findByRole('heading', { name: 'Repositories' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/project/default/repos');
  });

  it('shows the landing page at / and /flows', async () => {
    renderApp('/flows');
    expect(await screen.findByRole('heading', { name: 'Projects' })).toBeInTheDocument();
  });
});
