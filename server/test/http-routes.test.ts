import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { extract } from 'tar-stream';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, ok, repo } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

let server: TestServer;
let url: string;
let commit: string;
const content = Buffer.from('0123456789abcdefghij');

beforeAll(async () => {
  const webDist = await mkdtemp(path.join(tmpdir(), 'ivory-web-'));
  await writeFile(
    path.join(webDist, 'index.html'),
    '<!doctype html><title>Ivory test app</title><script>window.preload = 1;</script>',
  );
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
  server = await startTestServer({
    webDist,
    disableTelemetry: true,
  });
  url = server.url;
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('web') });
  commit = await commitFiles(url, 'web', {
    '/docs/letters.txt': content,
    '/docs/more/table.csv': 'a,b\n',
    '/docs/more/empty.txt': '',
    '/other.json': '{}',
  });
});
afterAll(() => server.close());

describe('files route', () => {
  it('serves bytes with type, ranges and download disposition', async () => {
    const whole = await fetch(`${url}/files/default/web/${commit}/docs/letters.txt`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-type')).toContain('text/plain');
    expect(Buffer.from(await whole.arrayBuffer()).equals(content)).toBe(true);

    const part = await fetch(`${url}/files/default/web/master/docs/letters.txt`, {
      headers: { range: 'bytes=2-5' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-5/20');
    expect(await part.text()).toBe('2345');
    const suffix = await fetch(`${url}/files/default/web/master/docs/letters.txt`, {
      headers: { range: 'bytes=-3' },
    });
    expect(await suffix.text()).toBe('hij');
    const outside = await fetch(`${url}/files/default/web/master/docs/letters.txt`, {
      headers: { range: 'bytes=50-60' },
    });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe('bytes */20');

    const download = await fetch(`${url}/files/default/web/master/other.json?download=1`);
    expect(download.headers.get('content-disposition')).toContain(
      'attachment; filename="other.json"',
    );
    const head = await fetch(`${url}/files/default/web/master/docs/letters.txt`, {
      method: 'HEAD',
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('20');
    const missing = await fetch(`${url}/files/default/web/master/nope.txt`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: number }).code).toBe(5);
  });

  it('serves a folder as a tar of everything under it', async () => {
    const response = await fetch(`${url}/files/default/web/master/docs`);
    expect(response.headers.get('content-disposition')).toContain('filename="docs.tar"');
    const entries: Array<{ name: string; size: number }> = [];
    const unpack = extract();
    unpack.on('entry', (header, stream, next) => {
      entries.push({ name: header.name, size: header.size ?? 0 });
      stream.on('end', next);
      stream.resume();
    });
    const done = new Promise<void>((resolve) => unpack.on('finish', () => resolve()));
    Readable.fromWeb(response.body as never).pipe(unpack);
    await done;
    expect(entries.filter((e) => !e.name.endsWith('/'))).toEqual([
      { name: 'letters.txt', size: 20 },
      { name: 'more/empty.txt', size: 0 },
      { name: 'more/table.csv', size: 4 },
    ]);
  });
});

describe('web routes', () => {
  it('serves /healthz and /runtime-config.js', async () => {
    expect(await fetch(`${url}/healthz`).then((r) => r.json())).toEqual({ status: 'ok' });
    const config = await fetch(`${url}/runtime-config.js`);
    expect(config.headers.get('cache-control')).toBe('no-store');
    expect(await config.text()).toBe(
      'window.pachDashConfig = {"REACT_APP_RUNTIME_ISSUER_URI":"","REACT_APP_RUNTIME_DISABLE_TELEMETRY":"true","REACT_APP_RELEASE_VERSION":"9.9.9-test","REACT_APP_PLATFORM":"embedded"};\n',
    );
    expect(await fetch(`${url}/auth/config`).then((r) => r.json())).toEqual({
      authEndpoint: '',
      clientId: '',
      pachdClientId: '',
    });
  });

  it('falls back to index.html for app routes, serves static files, and keeps reserved paths JSON', async () => {
    const page = await fetch(`${url}/lineage/default/repos/web`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Ivory test app');
    const asset = await fetch(`${url}/assets/app.js`);
    expect(await asset.text()).toBe('console.log(1)');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // index.html names the current assets: never kept without asking again.
    expect((await fetch(`${url}/`)).headers.get('cache-control')).not.toContain('immutable');
    expect(page.headers.get('cache-control')).not.toContain('immutable');
    const reserved = await fetch(`${url}/upload/nothing-here`);
    expect(reserved.status).toBe(404);
    expect(reserved.headers.get('content-type')).toBe('application/json');
  });

  it('sends the app its CSP with the inline script by hash, nosniff, no framing', async () => {
    const page = await fetch(`${url}/lineage/default/repos/web`);
    await page.arrayBuffer();
    const hash = createHash('sha256').update('window.preload = 1;').digest('base64');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    const root = await fetch(`${url}/`);
    await root.arrayBuffer();
    expect(root.headers.get('content-security-policy')).toBe(csp);
  });

  it('says the web app is not built when there is no dist', async () => {
    const bare = await startTestServer();
    try {
      const page = await fetch(`${bare.url}/some/page`);
      expect(await page.text()).toContain('web app not built: run npm run build');
    } finally {
      await bare.close();
    }
  });
});
