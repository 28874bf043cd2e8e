import { expect, test, type APIRequestContext } from '@playwright/test';
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

  const calls: string[] = [];
  page.on('request', (sent) => {
    const method = /\/api\/pps_v2\.API\/(\w+)$/.exec(new URL(sent.url()).pathname)?.[1];
    if (method) calls.push(method);
  });
  // A commit made elsewhere starts a job that fails: the node turns red.
  await commitFile(request, 'bad');
  await expect(lineageNode(page, name)).toHaveAttribute('data-tone', 'error', {
    timeout: 30_000,
  });
  expect(calls).toContain('InspectPipeline');
  expect(calls).toContain('ListJob');
  expect(calls).not.toContain('ListPipeline');
});
