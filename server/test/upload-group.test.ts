import { describe, expect, it } from 'vitest';
import { getFile, ok, repo, results } from './helpers/api-client.ts';
import { useTestServer } from './helpers/use-test-server.ts';
import { uploadClient } from './helpers/upload-client.ts';

// The sessions of one modal upload (one /upload/start per folder, as the spec's client makes
// them) carry the same `group`: they land in one commit, all or nothing, whichever finishes first.

const { url } = useTestServer({ projects: ['default'], repos: ['grouped', 'other'] });
const { postJson, sendChunk } = uploadClient(url);

async function start(path: string, group: string, repoName = 'grouped') {
  const started = await postJson('/upload/start', {
    path,
    repo: repoName,
    branch: 'master',
    description: 'a design in three folders',
    projectId: 'default',
    group,
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return started.body.uploadId as string;
}

const commitsOf = (name: string) => results(url(), 'pfs_v2.API/ListCommit', { repo: repo(name) });

describe('an upload group', () => {
  it('lands the files of every session in one commit; every finish answers with it', async () => {
    const before = await commitsOf('grouped');
    const rtl = await start('/rtl', 'g-one');
    const tb = await start('/rtl/tb', 'g-one');
    const plugin = await start('/rtl/user_plugin', 'g-one');
    await sendChunk(rtl, 'counter4.v', 1, 0, Buffer.from('module counter4; endmodule\n'));
    await sendChunk(tb, 'counter4_tb.v', 1, 0, Buffer.from('module counter4_tb; endmodule\n'));
    await sendChunk(plugin, 'plugin.json', 1, 0, Buffer.from('{"stages":[]}\n'));

    const finishes = [];
    for (const uploadId of [rtl, tb, plugin])
      finishes.push(await postJson('/upload/finish', { uploadId, description: '' }));
    for (const finished of finishes) expect(finished.status).toBe(200);
    const commitIds = new Set(finishes.map((finished) => finished.body.commitId));
    expect(commitIds.size).toBe(1);
    const after = await commitsOf('grouped');
    expect(after).toHaveLength(before.length + 1);
    const [commitId] = [...commitIds] as string[];
    expect(after[0].commit.id).toBe(commitId);
    expect(after[0].description).toBe('a design in three folders');
    const paths = (
      await results(url(), 'pfs_v2.API/GlobFile', {
        commit: { repo: repo('grouped'), id: commitId },
        pattern: '/rtl/**',
      })
    )
      .filter((file) => file.fileType === 'FILE')
      .map((file) => file.file.path)
      .sort();
    expect(paths).toEqual([
      '/rtl/counter4.v',
      '/rtl/tb/counter4_tb.v',
      '/rtl/user_plugin/plugin.json',
    ]);
  });

  it('lands nothing while a file of any session is incomplete, then all of it', async () => {
    const before = await commitsOf('grouped');
    const first = await start('/a', 'g-two');
    const second = await start('/b', 'g-two');
    await sendChunk(first, 'one.txt', 1, 0, Buffer.from('one\n'));
    await sendChunk(second, 'two.txt', 2, 0, Buffer.from('tw'));
    const early = await postJson('/upload/finish', { uploadId: first, description: '' });
    expect(early.status).toBe(400);
    expect(early.body.code).toBe(9);
    expect(early.body.message).toContain('two.txt is incomplete');
    expect(await commitsOf('grouped')).toHaveLength(before.length);

    await sendChunk(second, 'two.txt', 2, 1, Buffer.from('o\n'));
    const landed = await postJson('/upload/finish', { uploadId: second, description: 'both' });
    expect(landed.status).toBe(200);
    expect(await commitsOf('grouped')).toHaveLength(before.length + 1);
    const commitId = landed.body.commitId as string;
    expect((await getFile(url(), 'grouped', commitId, '/a/one.txt')).toString()).toBe('one\n');
    expect((await getFile(url(), 'grouped', commitId, '/b/two.txt')).toString()).toBe('two\n');
    const again = await postJson('/upload/finish', { uploadId: first, description: '' });
    expect(again.body.commitId).toBe(commitId);
  });

  it('overwrites a file the branch had, instead of appending to it', async () => {
    const once = await start('/same', 'g-three');
    await sendChunk(once, 'f.txt', 1, 0, Buffer.from('first version\n'));
    await postJson('/upload/finish', { uploadId: once, description: '' });
    const twice = await start('/same', 'g-four');
    await sendChunk(twice, 'f.txt', 1, 0, Buffer.from('second\n'));
    await postJson('/upload/finish', { uploadId: twice, description: '' });
    expect((await getFile(url(), 'grouped', 'master', '/same/f.txt')).toString()).toBe('second\n');
  });

  it('refuses a session of a group that lands elsewhere, and a malformed group', async () => {
    await start('/x', 'g-five');
    const elsewhere = await postJson('/upload/start', {
      path: '/y',
      repo: 'other',
      projectId: 'default',
      group: 'g-five',
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.code).toBe(3);
    expect(elsewhere.body.message).toContain('upload group g-five lands in default/grouped@master');
    const malformed = await postJson('/upload/start', {
      path: '/y',
      repo: 'grouped',
      projectId: 'default',
      group: 'not a group!',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toContain('group must be 1 to 64 letters');
    await ok(url(), 'pfs_v2.API/InspectRepo', { repo: repo('other') });
  });
});
