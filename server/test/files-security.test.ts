import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, ok, repo } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { tarEntries } from './helpers/tar-entries.ts';

let server: TestServer;
let id: string;

beforeAll(async () => {
  server = await startTestServer();
  await ok(server.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(server.url, 'pfs_v2.API/CreateRepo', { repo: repo('web') });
  id = await commitFiles(server.url, 'web', {
    '/evil.html': '<script>window.parent.__pwned=1</script>',
    '/pic.svg': '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>',
    '/data/a.txt': 'alpha',
    '/data/sub/b.txt': 'beta',
    '/notes/c.md': '# c',
    '/top.txt': 'top',
  });
});
afterAll(() => server.close());

describe('/files security headers', () => {
  it.each(['/evil.html', '/pic.svg', '/data/', '/missing.txt'])(
    'sends CSP sandbox and nosniff for %s',
    async (path) => {
      const response = await fetch(`${server.url}/files/default/web/${id}${path}`);
      await response.arrayBuffer();
      expect(response.headers.get('content-security-policy')).toBe('sandbox');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    },
  );

  it('sends them on ranged and archive answers too', async () => {
    const ranged = await fetch(`${server.url}/files/default/web/${id}/evil.html`, {
      headers: { range: 'bytes=0-3' },
    });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-security-policy')).toBe('sandbox');
    const archive = await fetch(`${server.url}/files/default/web/${id}?archive=tar&path=/top.txt`);
    expect(archive.headers.get('content-security-policy')).toBe('sandbox');
  });
});

describe('/files archive of a selection', () => {
  it('streams the chosen files and folders as one tar, named from the repo root', async () => {
    const response = await fetch(
      `${server.url}/files/default/web/${id}?archive=tar&path=/data/&path=/top.txt`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-tar');
    expect(response.headers.get('content-disposition')).toContain('web.tar');
    const entries = await tarEntries(await response.arrayBuffer());
    expect(entries).toEqual({
      'data/': '<dir>',
      'data/a.txt': 'alpha',
      'data/sub/': '<dir>',
      'data/sub/b.txt': 'beta',
      'top.txt': 'top',
    });
  });

  it('answers 404 for a missing path and 400 without archive=tar', async () => {
    const missing = await fetch(`${server.url}/files/default/web/${id}?archive=tar&path=/nope`);
    expect(missing.status).toBe(404);
    const wrong = await fetch(`${server.url}/files/default/web/${id}?path=/top.txt`);
    expect(wrong.status).toBe(400);
  });

  it('still downloads a folder URL as a tar of its contents', async () => {
    const response = await fetch(`${server.url}/files/default/web/${id}/data/`);
    const entries = await tarEntries(await response.arrayBuffer());
    expect(entries['a.txt']).toBe('alpha');
    expect(entries['sub/b.txt']).toBe('beta');
  });
});

describe('headers by route, not by spelling', () => {
  it.each([
    '/%66iles/default/web/ID/evil.html',
    '/fil%65s/default/web/ID/evil.html',
    '/files/default/web/ID/evil%2ehtml',
    '/pfs/default/web/ID/evil.html',
  ])('%s is a sandboxed attachment, never a page of the console', async (spelling) => {
    const response = await fetch(`${server.url}${spelling.replace('ID', id)}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<script>');
    expect(response.headers.get('content-security-policy')).toBe('sandbox');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-disposition')).toBe('attachment');
  });

  it('lets the console preview an active type in a frame or fetch it, still sandboxed', async () => {
    for (const dest of ['iframe', 'empty', 'image']) {
      const response = await fetch(`${server.url}/files/default/web/${id}/pic.svg`, {
        headers: { 'sec-fetch-dest': dest },
      });
      await response.arrayBuffer();
      expect(response.headers.get('content-disposition'), dest).toBeNull();
      expect(response.headers.get('content-security-policy')).toBe('sandbox');
    }
    const page = await fetch(`${server.url}/files/default/web/${id}/pic.svg`, {
      headers: { 'sec-fetch-dest': 'document' },
    });
    await page.arrayBuffer();
    expect(page.headers.get('content-disposition')).toBe('attachment');
    const text = await fetch(`${server.url}/files/default/web/${id}/top.txt`);
    await text.arrayBuffer();
    expect(text.headers.get('content-disposition')).toBeNull();
  });

  it('sends the app policy (not the sandbox) on the API and other routes', async () => {
    const response = await fetch(`${server.url}/api/versionpb_v2.API/GetVersion`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await response.arrayBuffer();
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
  });
});
