import { beforeAll, describe, expect, it } from 'vitest';
import { knownMethods } from '../src/platform/known-methods.ts';
import { call, callStream, commitFiles, ok, repo, results } from './helpers/api-client.ts';
import { useTestServer } from './helpers/use-test-server.ts';

const { url } = useTestServer({ projects: ['default'], repos: ['wire'] });
beforeAll(() => commitFiles(url(), 'wire', { '/a.txt': 'abc' }));

describe('wire format', () => {
  it('answers unary calls with Content-Type exactly application/json', async () => {
    const response = await call(url(), 'versionpb_v2.API/GetVersion');
    expect(response.status).toBe(200);
    expect(response.contentType).toBe('application/json');
    expect(response.body).toMatchObject({ major: 2, minor: 11, micro: 0, additional: '-ivory' });
  });

  it('streams NDJSON lines that each end with a newline', async () => {
    const response = await callStream(url(), 'pfs_v2.API/ListRepo', { type: 'user' });
    expect(response.contentType).toBe('application/json');
    expect(response.text.endsWith('\n')).toBe(true);
    expect(
      response.text
        .split('\n')
        .filter(Boolean)
        .every((line) => 'result' in JSON.parse(line)),
    ).toBe(true);
  });

  it('encodes int64 as strings, enums as names, unset messages as null', async () => {
    const [commit] = await results(url(), 'pfs_v2.API/ListCommit', { repo: repo('wire') });
    expect(commit.sizeBytesUpperBound).toBe('3');
    expect(commit.origin.kind).toBe('USER');
    expect(commit.parentCommit).toBeNull();
    expect(commit.childCommits).toEqual([]);
    expect(commit.metadata).toEqual({});
    const [file] = await results(url(), 'pfs_v2.API/ListFile', {
      file: { commit: commit.commit, path: '/' },
    });
    expect(file.fileType).toBe('FILE');
    expect(file.sizeBytes).toBe('3');
  });

  it('accepts snake_case keys and numbers for int64 fields', async () => {
    const limited = await results(url(), 'pfs_v2.API/ListCommit', {
      repo: repo('wire'),
      number: 1,
      origin_kind: 'USER',
    });
    expect(limited).toHaveLength(1);
  });

  it('answers errors as {code, message, details} with the mapped status', async () => {
    const response = await call(url(), 'pfs_v2.API/InspectRepo', { repo: repo('absent') });
    expect(response.status).toBe(404);
    expect(response.contentType).toBe('application/json');
    expect(response.body).toEqual({
      code: 5,
      message: 'repo absent not found in project default',
      details: [],
    });
  });

  it('sets the status when a stream fails before its first line', async () => {
    const response = await callStream(url(), 'pfs_v2.API/ListBranch', { repo: repo('absent') });
    expect(response.status).toBe(404);
    expect(response.lines[0].code).toBe(5);
  });

  it('answers 12 in JSON for unknown and not-yet-implemented methods', async () => {
    const unknown = await call(url(), 'nothing.API/Nope');
    expect(unknown.status).toBe(501);
    expect(unknown.body).toEqual({ code: 12, message: 'Nope is not implemented yet', details: [] });
    const get = await fetch(`${url()}/api/pfs_v2.API/ListRepo`);
    expect(get.headers.get('content-type')).toBe('application/json');
    expect(((await get.json()) as { code: number }).code).toBe(12);
  });

  it('answers every call of the spec with JSON (never HTML)', async () => {
    for (const [service, methods] of Object.entries(knownMethods)) {
      for (const method of methods) {
        // DeleteAll {} really deletes everything (surface-calls.test.ts covers it).
        if (method === 'SubscribeCommit' || method === 'ModifyFile' || method === 'DeleteAll')
          continue;
        const response = await fetch(`${url()}/api/${service}/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(response.headers.get('content-type'), `${service}/${method}`).toBe(
          'application/json',
        );
        await response.text();
      }
    }
  });

  it('says the auth service is not activated', async () => {
    for (const method of ['WhoAmI', 'Authorize']) {
      const response = await call(url(), `auth_v2.API/${method}`);
      expect(response.status).toBe(501);
      expect(response.body).toEqual({
        code: 12,
        message: 'the auth service is not activated',
        details: [],
      });
    }
  });

  it('rejects malformed JSON and wrong types with 3 and changes nothing', async () => {
    const bad = await call(url(), 'pfs_v2.API/CreateRepo', '{"repo": {"name": ');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(3);
    expect(bad.body.message).toMatch(/^invalid JSON/);
    const wrongType = await call(url(), 'pfs_v2.API/CreateRepo', { repo: { name: 42 } });
    expect(wrongType.body.code).toBe(3);
    expect(wrongType.body.message).toContain('repo.name');
    const repos = await results(url(), 'pfs_v2.API/ListRepo', {});
    expect(repos.map((r) => r.repo.name)).toEqual(['wire']);
  });

  it('inspects the cluster with a stable id and edits metadata', async () => {
    const first = await ok(url(), 'admin_v2.API/InspectCluster');
    const second = await ok(url(), 'admin_v2.API/InspectCluster');
    expect(first.id).toBe(second.id);
    expect(first).toMatchObject({
      warningsOk: true,
      warnings: [],
      proxyHost: '',
      paused: false,
      webResources: null,
    });

    await ok(url(), 'metadata.API/EditMetadata', {
      edits: [
        {
          repo: { name: { project: { name: 'default' }, name: 'wire', type: 'user' } },
          addKey: { key: 'team', value: 'ml' },
        },
        { project: { name: 'default' }, replace: { replacement: { owner_name: 'ana' } } },
        {
          commit: {
            branchHead: {
              name: {
                repo: { name: { project: { name: 'default' }, name: 'wire' } },
                name: 'master',
              },
            },
          },
          editKey: { key: 'k', value: 'v' },
        },
        { cluster: {}, addKey: { key: 'env', value: 'test' } },
      ],
    });
    expect((await ok(url(), 'pfs_v2.API/InspectRepo', { repo: repo('wire') })).metadata).toEqual({
      team: 'ml',
    });
    expect(
      (await ok(url(), 'pfs_v2.API/InspectProject', { project: { name: 'default' } })).metadata,
    ).toEqual({ owner_name: 'ana' });
    expect((await ok(url(), 'admin_v2.API/InspectCluster')).metadata).toEqual({ env: 'test' });

    const failing = await call(url(), 'metadata.API/EditMetadata', {
      edits: [
        { project: { name: 'default' }, deleteKey: { key: 'owner_name' } },
        {
          repo: { name: { project: { name: 'default' }, name: 'wire' } },
          addKey: { key: 'team', value: 'again' },
        },
      ],
    });
    expect(failing.body.code).toBe(9);
    expect(
      (await ok(url(), 'pfs_v2.API/InspectProject', { project: { name: 'default' } })).metadata,
    ).toEqual({ owner_name: 'ana' });
  });
});
