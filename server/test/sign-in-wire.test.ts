import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startSignedInTestServer,
  startTestServer,
  type SignedInTestServer,
  type TestServer,
} from './helpers/in-process-server.ts';
import { putText, repoRef } from './helpers/signed-in-api.ts';
import { tarEntries } from './helpers/tar-entries.ts';

// One wire form: GetFile and GetFileTAR answer NDJSON lines whose results are base64 strings,
// with sign-in on as with it off (sign-in on once answered `{"type":"Buffer","data":[…]}`).

let signedIn: SignedInTestServer;
let open: TestServer;
const text = 'héllo wire\n'.repeat(50);

async function call(url: string, token: string, method: string, body: unknown) {
  const response = await fetch(`${url}/api/${method}`, {
    method: 'POST',
    headers: {
      'content-type': method.endsWith('ModifyFile') ? 'application/x-ndjson' : 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: Array.isArray(body)
      ? body.map((line) => JSON.stringify(line)).join('\n')
      : JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.text();
}

const commit = { repo: repoRef('w', 'wire'), id: 'master' };

async function seed(url: string, token: string): Promise<void> {
  await call(url, token, 'pfs_v2.API/CreateProject', { project: { name: 'w' } });
  await call(url, token, 'pfs_v2.API/CreateRepo', { repo: repoRef('w', 'wire') });
  await call(url, token, 'pfs_v2.API/ModifyFile', putText('w', 'wire', '/d/a.txt', text));
}

/** The bytes of a byte stream's answer, checking each line is `{"result":"<base64>"}`. */
function base64Lines(answer: string): Buffer {
  const lines = answer.split('\n').filter(Boolean);
  expect(lines.length).toBeGreaterThan(0);
  return Buffer.concat(
    lines.map((line) => {
      const { result } = JSON.parse(line) as { result: unknown };
      expect(typeof result).toBe('string');
      expect(line).toBe(JSON.stringify({ result }));
      return Buffer.from(result as string, 'base64');
    }),
  );
}

beforeAll(async () => {
  signedIn = await startSignedInTestServer(['alice']);
  open = await startTestServer();
  await seed(signedIn.url, signedIn.tokens.alice!);
  await seed(open.url, '');
}, 60_000);

afterAll(async () => {
  await signedIn?.close();
  await open?.close();
});

describe('GetFile and GetFileTAR over HTTP', () => {
  it('answer base64 with sign-in on, byte for byte as with it off', async () => {
    const request = { file: { commit, path: '/d/a.txt' } };
    const on = await call(signedIn.url, signedIn.tokens.alice!, 'pfs_v2.API/GetFile', request);
    const off = await call(open.url, '', 'pfs_v2.API/GetFile', request);
    expect(base64Lines(on).toString()).toBe(text);
    expect(on).toBe(off);

    const tarRequest = { file: { commit, path: '/d' } };
    const tarOn = await call(
      signedIn.url,
      signedIn.tokens.alice!,
      'pfs_v2.API/GetFileTAR',
      tarRequest,
    );
    const tarOff = await call(open.url, '', 'pfs_v2.API/GetFileTAR', tarRequest);
    // (Entries carry the time they were packed: the archives are compared by their entries.)
    const entriesOn = await tarEntries(base64Lines(tarOn));
    expect(Object.values(entriesOn)).toContain(text);
    expect(entriesOn).toEqual(await tarEntries(base64Lines(tarOff)));
  });
});
