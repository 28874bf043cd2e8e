import { expect, type Page } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';

/** One of the console's main screens on the seeded demo project, and how to tell it is drawn. */
export interface MainScreen {
  name: string;
  path: string;
  /** Waits until the screen shows its data (and opens what the path alone does not). */
  ready: (page: Page) => Promise<void>;
}

/** The ten main screens reviewed by the screenshots script and checked by axe. */
export const mainScreens: MainScreen[] = [
  {
    name: 'projects',
    path: '/',
    ready: async (page) => {
      await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'default' }).first()).toBeVisible();
    },
  },
  {
    name: 'lineage',
    path: '/lineage/default',
    ready: async (page) => {
      // The layout runs in a worker (elkjs): on a loaded machine it can take longer than 10 s.
      await expect(page.getByTestId(testIds.lineageNode).first()).toBeVisible({ timeout: 30_000 });
    },
  },
  {
    name: 'lineage-pipeline',
    path: '/lineage/default/pipelines/row-counts',
    ready: async (page) => {
      // The layout runs in a worker (elkjs): on a loaded machine it can take longer than 10 s.
      await expect(page.getByTestId(testIds.lineageNode).first()).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText('row-counts').first()).toBeVisible();
    },
  },
  {
    name: 'repos',
    path: '/project/default/repos',
    ready: async (page) => {
      await expect(page.getByTestId(testIds.repoRow).first()).toBeVisible();
    },
  },
  {
    name: 'commit-files',
    path: '/project/default/repos/samples/latest',
    ready: async (page) => {
      await expect(page.getByTestId(testIds.fileRow).first()).toBeVisible();
      await expect(page.getByTestId(testIds.commitRow).first()).toBeVisible();
    },
  },
  {
    name: 'file-preview',
    path: '/project/default/repos/samples/latest',
    ready: async (page) => {
      await page.getByTestId(testIds.fileRow).getByRole('link', { name: 'README.md' }).click();
      const preview = page.getByTestId(testIds.filePreview);
      await expect(preview.getByRole('heading', { name: 'Samples' })).toBeVisible();
    },
  },
  {
    name: 'pipelines',
    path: '/project/default/pipelines',
    ready: async (page) => {
      await expect(page.getByTestId(testIds.pipelineRow).first()).toBeVisible();
    },
  },
  {
    name: 'jobs',
    path: '/project/default/jobs',
    ready: async (page) => {
      await expect(
        page.getByTestId(testIds.jobSetRow).or(page.getByTestId(testIds.jobRow)).first(),
      ).toBeVisible();
    },
  },
  {
    name: 'pipeline-logs',
    path: '/project/default/logs/pipelines/row-counts/logs',
    ready: async (page) => {
      await expect(page.getByTestId(testIds.logViewer)).toBeVisible();
    },
  },
  {
    name: 'trials',
    path: '/project/default/trials',
    ready: async (page) => {
      await expect(page.getByRole('heading', { name: 'Trials' })).toBeVisible();
      await page.waitForLoadState('networkidle');
    },
  },
];

/**
 * The screen chrome over or beside the main screens (issue #17): the logs panel over the lineage,
 * the pipeline editor's full-page modal and an empty screen with its action. Reviewed and checked
 * with the main screens.
 */
export const chromeScreens: MainScreen[] = [
  {
    name: 'job-logs-panel',
    path: '/lineage/default/pipelines/row-counts/jobs',
    ready: async (page) => {
      await page
        .getByTestId(testIds.lineageSidePanel)
        .getByTestId(testIds.jobRow)
        .first()
        .getByRole('link')
        .click();
      const dialog = page.getByRole('dialog', { name: 'Job Logs' });
      await expect(dialog.getByTestId(testIds.logViewer)).toBeVisible();
      await expect(dialog.getByTestId(testIds.datumRow).first()).toBeVisible();
      await expect(dialog.getByTestId(testIds.jobDetail)).toBeVisible();
    },
  },
  {
    name: 'pipeline-editor',
    path: '/lineage/default/update/pipeline/row-counts',
    ready: async (page) => {
      const dialog = page.getByRole('dialog', { name: 'Pipeline Editor' });
      await expect(dialog.getByTestId(testIds.specEditor).locator('.cm-content')).toContainText(
        'row-counts',
      );
      await expect(dialog.getByTestId(testIds.effectiveSpec)).toContainText('row-counts');
    },
  },
  {
    name: 'csv-preview',
    path: '/project/default/repos/samples/latest',
    ready: async (page) => {
      await page.getByTestId(testIds.fileRow).getByRole('link', { name: 'data' }).click();
      await page.getByTestId(testIds.fileRow).getByRole('link', { name: 'iris.csv' }).click();
      const csv = page.getByTestId(testIds.csvPreview);
      await expect(csv.getByRole('columnheader', { name: 'species' })).toBeAttached();
    },
  },
  {
    name: 'empty-repos',
    path: '/project/default/repos',
    ready: async (page) => {
      const created = await page.request.post('/api/pfs_v2.API/CreateProject', {
        data: { project: { name: 'empty-screens' }, update: true },
      });
      expect(created.ok()).toBe(true);
      await page.goto('/project/empty-screens/repos');
      await expect(page.getByTestId(testIds.emptyState)).toContainText('No repositories yet');
    },
  },
];
