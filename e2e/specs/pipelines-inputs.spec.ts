import { expect, test } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';
import { commitFiles, createRepo } from '../support/data-api.ts';
import { createPipelineViaApi, lineageNode, setEditorText } from './pipelines-support.ts';

// Two repos whose names join on b and c: left has a, b, c; right has b, c, d.
const left = 'left-e2e';
const right = 'right-e2e';

test.beforeAll(async ({ baseURL }) => {
  await createRepo(baseURL!, left);
  await createRepo(baseURL!, right);
  await commitFiles(baseURL!, left, { '/a': 'left a', '/b': 'left b', '/c': 'left c' });
  await commitFiles(baseURL!, right, { '/b': 'right b', '/c': 'right c', '/d': 'right d' });
});

const pipelineSpec = (name: string, input: object, cmd: string[]) => ({
  pipeline: { name, project: { name: 'default' } },
  input,
  transform: { cmd },
});

test('the editor lists the datums of a join input before the pipeline is created', async ({
  page,
}) => {
  const joined = pipelineSpec(
    'joined-e2e',
    {
      join: [
        { pfs: { repo: left, glob: '/(*)', joinOn: '$1' } },
        { pfs: { repo: right, glob: '/(*)', joinOn: '$1' } },
      ],
    },
    ['sh', '-c', `cat /pfs/${left}/* /pfs/${right}/* > /pfs/out/$PACH_DATUM_ID`],
  );
  await page.goto('/lineage/default/create/pipeline');
  await expect(page.getByTestId(testIds.specEditor).locator('.cm-content')).toBeVisible();
  await setEditorText(page, testIds.specEditor, JSON.stringify(joined, null, 2));
  const preview = page.getByTestId(testIds.datumPreview);
  await expect(preview).toContainText('This input makes 2 datums');
  await expect(preview.getByRole('row').filter({ hasText: `${left}:/b` })).toContainText(
    `${right}:/b`,
  );
  await expect(preview.getByRole('row').filter({ hasText: `${left}:/c` })).toContainText(
    `${right}:/c`,
  );
  await expect(preview).not.toContainText(`${left}:/a`);
  await expect(preview).not.toContainText(`${right}:/d`);
  // Nothing was created: the lineage has no such pipeline.
  await page.goto('/lineage/default');
  await expect(lineageNode(page, 'summary')).toBeVisible();
  await expect(lineageNode(page, 'joined-e2e')).toHaveCount(0);
});

test('a union pipeline and a cross pipeline run to success', async ({ page, request }) => {
  // A union's datum holds one input only: the other is absent under /pfs (as in pachd).
  await createPipelineViaApi(
    request,
    pipelineSpec(
      'union-e2e',
      { union: [{ pfs: { repo: left, glob: '/*' } }, { pfs: { repo: right, glob: '/*' } }] },
      // (Each datum writes a path of its own: two datums writing one path fail the job.)
      ['sh', '-c', '[ "$(ls /pfs | wc -l)" -eq 2 ] && cat /pfs/*-e2e/* > /pfs/out/$PACH_DATUM_ID'],
    ),
  );
  await createPipelineViaApi(
    request,
    pipelineSpec(
      'cross-e2e',
      { cross: [{ pfs: { repo: left, glob: '/*' } }, { pfs: { repo: right, glob: '/*' } }] },
      ['sh', '-c', `cat /pfs/${left}/* /pfs/${right}/* > /pfs/out/$PACH_DATUM_ID`],
    ),
  );
  await page.goto('/lineage/default');
  for (const name of ['union-e2e', 'cross-e2e'])
    await expect(lineageNode(page, name)).toHaveAttribute('data-tone', 'success', {
      timeout: 30_000,
    });

  // The cross ran every pair: 3 × 3 datums, each successful.
  await lineageNode(page, 'cross-e2e').click();
  await page.getByRole('tab', { name: 'Jobs' }).click();
  await page
    .getByTestId(testIds.pipelinePanel)
    .getByTestId(testIds.jobRow)
    .first()
    .getByRole('link')
    .click();
  await expect(page.getByRole('heading', { name: 'Job Logs', exact: true })).toBeVisible();
  await expect(
    page.getByTestId(testIds.jobDetail).getByTestId(testIds.jobState).first(),
  ).toHaveAttribute('data-state', 'JOB_SUCCESS');
  await expect(page.getByTestId(testIds.datumRow)).toHaveCount(9);
});
