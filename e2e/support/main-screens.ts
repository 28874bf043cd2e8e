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
      await expect(page.getByTestId(testIds.lineageNode).first()).toBeVisible();
    },
  },
  {
    name: 'lineage-pipeline',
    path: '/lineage/default/pipelines/row-counts',
    ready: async (page) => {
      await expect(page.getByTestId(testIds.lineageNode).first()).toBeVisible();
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
