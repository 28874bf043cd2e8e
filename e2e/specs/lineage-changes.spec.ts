import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createPipelineViaApi, lineageNode } from './pipelines-support.ts';

const source = 'changes-src';
const name = 'changes-e2e';
const repo = { name: source, type: 'user', project: { name: 'default' } };

async function call(request: APIRequestContext, method: string, data: unknown) {
  const response = await request.post(`/api/${method}`, { data: data as object });
  expect(response.ok(), await response.text()).toBe(true);
  return response.json() as Promise<unknown>;
}

/** One commit to the source repo's master that writes `/f` (done elsewhere than the console). */
async function commitFile(request: APIRequestContext, text: string) {
  const commit = await call(request, 'pfs_v2.API/StartCommit', {
    branch: { repo, name: 'master' },
  });
  const lines = [
    { setCommit: commit },
    { addFile: { path: '/f', raw: Buffer.from(text).toString('base64') } },
  ];
  const written = await request.post('/api/pfs_v2.API/ModifyFile', {
    headers: { 'content-type': 'application/x-ndjson' },
    data: lines.map((line) => JSON.stringify(line)).join('\n') + '\n',
  });
  expect(written.ok(), await written.text()).toBe(true);
  await call(request, 'pfs_v2.API/FinishCommit', { commit });
}

/**
 * The pps_v2 methods the page calls from now on; a paged ListPipeline (the lineage's probe of
 * the most recently changed pipelines) counts as `ListPipeline(page)`, the whole list as
 * `ListPipeline`.
 */
function recordPpsCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (sent) => {
    const method = /\/api\/pps_v2\.API\/(\w+)$/.exec(new URL(sent.url()).pathname)?.[1];
    if (!method) return;
    const paged =
      method === 'ListPipeline' && (JSON.parse(sent.postData() ?? '{}') as { page?: unknown }).page;
    calls.push(paged ? 'ListPipeline(page)' : method);
  });
  return calls;
}

test('a job run from elsewhere shows on the lineage by inspecting its pipeline, not by listing every pipeline again', async ({
  page,
  request,
}) => {
  await call(request, 'pfs_v2.API/CreateRepo', { repo });
  await commitFile(request, 'ok');
  await createPipelineViaApi(request, {
    pipeline: { name, project: { name: 'default' } },
    input: { pfs: { repo: source, glob: '/' } },
    transform: { image: 'alpine:3', cmd: ['sh', '-c', `grep -q ok /pfs/${source}/f`] },
    datumTries: 1,
  });

  await page.goto('/lineage/default');
  await expect(lineageNode(page, name)).toHaveAttribute('data-tone', 'success', {
    timeout: 30_000,
  });

  const calls = recordPpsCalls(page);
  // A commit made elsewhere starts a job that fails: the node turns red.
  await commitFile(request, 'bad');
  await expect(lineageNode(page, name)).toHaveAttribute('data-tone', 'error', {
    timeout: 30_000,
  });
  expect(calls).toContain('InspectPipeline');
  expect(calls).toContain('ListJob');
  // The probe reads ListPipeline's first few (a page); the whole list is not read again.
  expect(calls).not.toContain('ListPipeline');
});

test('a paused pipeline updated from elsewhere shows its new input on the lineage without a reload', async ({
  page,
  request,
}) => {
  const [first, second, paused] = ['paused-src-a', 'paused-src-b', 'paused-e2e'];
  for (const source of [first, second])
    await call(request, 'pfs_v2.API/CreateRepo', {
      repo: { name: source, type: 'user', project: { name: 'default' } },
    });
  const specOn = (source: string) => ({
    pipeline: { name: paused, project: { name: 'default' } },
    input: { pfs: { repo: source, glob: '/' } },
    transform: { image: 'alpine:3', cmd: ['sh', '-c', 'true'] },
  });
  await createPipelineViaApi(request, specOn(first));
  await call(request, 'pps_v2.API/StopPipeline', {
    pipeline: { name: paused, project: { name: 'default' } },
  });

  await page.goto('/lineage/default');
  const node = lineageNode(page, paused);
  await expect(node).toHaveAttribute('data-tone', 'paused', { timeout: 30_000 });
  const edge = (source: string) =>
    page.getByTestId(`rf__edge-repo:default/${source}->pipeline:default/${paused}`);
  await expect(edge(first)).toBeAttached();
  await expect(edge(second)).toHaveCount(0);

  const calls = recordPpsCalls(page);
  // Updated elsewhere while paused: a new version reading another repo, no job, same counts.
  const updated = await request.post('/api/pps_v2.API/CreatePipelineV2', {
    data: {
      createPipelineRequestJson: JSON.stringify(specOn(second)),
      update: true,
      dryRun: false,
    },
  });
  expect(updated.ok(), await updated.text()).toBe(true);
  await expect(edge(second)).toBeAttached({ timeout: 30_000 });
  await expect(edge(first)).toHaveCount(0);
  await expect(node).toHaveAttribute('data-tone', 'paused');
  expect(calls).toContain('ListPipeline(page)');
  expect(calls).not.toContain('ListPipeline');

  // Started elsewhere: the node leaves the paused state, again without a reload.
  await call(request, 'pps_v2.API/StartPipeline', {
    pipeline: { name: paused, project: { name: 'default' } },
  });
  await expect(node).not.toHaveAttribute('data-tone', 'paused', { timeout: 30_000 });
});
