import { describe, expect, it } from 'vitest';
import { createApiClient } from './client.ts';
import { encodeModifyFile, fileUrl, listFilesPage } from './pfs.ts';

describe('fileUrl', () => {
  it('encodes each path segment', () => {
    expect(
      fileUrl({ project: 'default', repo: 'images', commitId: 'abc', path: '/a dir/x#1.png' }),
    ).toBe('/files/default/images/abc/a%20dir/x%231.png');
  });
  it('adds download=1 and a base URL', () => {
    expect(
      fileUrl({ project: 'p', repo: 'r', commitId: 'c', path: '/f', download: true }, 'http://h'),
    ).toBe('http://h/files/p/r/c/f?download=1');
  });
});

describe('encodeModifyFile', () => {
  it('writes setCommit then each operation, one JSON per line', () => {
    const body = encodeModifyFile({ project: 'p', repo: 'r', commitId: '', branch: 'master' }, [
      { addFile: { path: '/a.txt', raw: 'aGk=' } },
      { deleteFile: { path: '/b.txt' } },
    ]);
    const lines = body.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    expect(JSON.parse(lines[0] ?? '')).toEqual({
      setCommit: {
        repo: { name: 'r', type: 'user', project: { name: 'p' } },
        id: '',
        branch: { repo: { name: 'r', type: 'user', project: { name: 'p' } }, name: 'master' },
      },
    });
    expect(JSON.parse(lines[1] ?? '')).toEqual({ addFile: { path: '/a.txt', raw: 'aGk=' } });
  });
});

describe('listFilesPage', () => {
  function clientListing(count: number) {
    const bodies: unknown[] = [];
    const client = createApiClient({
      getToken: () => null,
      fetch: async (_url, init) => {
        const request = JSON.parse(String(init?.body)) as { number: string };
        bodies.push(request);
        const lines = Array.from({ length: Math.min(count, Number(request.number)) }, (_, i) =>
          JSON.stringify({
            result: { file: { path: `/f${i}` }, fileType: 'FILE', sizeBytes: '1' },
          }),
        );
        return new Response(lines.map((line) => line + '\n').join(''));
      },
    });
    return { client, bodies };
  }

  it('asks for one more than the page and returns the marker when there are more', async () => {
    const { client, bodies } = clientListing(10);
    const page = await listFilesPage(client, {
      project: 'p',
      repo: 'r',
      commitId: 'c',
      path: '/',
      number: 3,
      marker: '/x',
    });
    expect(page.files.map((f) => f.file.path)).toEqual(['/f0', '/f1', '/f2']);
    expect(page.nextMarker).toBe('/f2');
    expect(bodies[0]).toMatchObject({
      number: '4',
      paginationMarker: { path: '/x' },
      file: { path: '/' },
    });
  });

  it('returns no marker on the last page', async () => {
    const { client } = clientListing(2);
    const page = await listFilesPage(client, {
      project: 'p',
      repo: 'r',
      commitId: 'c',
      path: '/',
      number: 3,
    });
    expect(page.files).toHaveLength(2);
    expect(page.nextMarker).toBeNull();
  });
});

describe('archiveUrl', () => {
  it('names every selected path in the query of one tar download', async () => {
    const { archiveUrl } = await import('./pfs.ts');
    expect(
      archiveUrl(
        { project: 'p', repo: 'r', commitId: 'c1', paths: ['/data/', '/a b.txt'] },
        'http://h',
      ),
    ).toBe('http://h/files/p/r/c1?archive=tar&path=%2Fdata%2F&path=%2Fa%20b.txt');
  });
});
