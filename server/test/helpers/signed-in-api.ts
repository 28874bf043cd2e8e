/**
 * Calls over HTTP as a signed-in user of a test server (a bearer token per login):
 *   const { api, ok } = signedInApi(server);
 *   await ok('alice', 'pfs_v2.API/CreateRepo', { repo });      // throws unless 200
 *   const { status, body, lines } = await api('bob', 'pfs_v2.API/InspectRepo', { repo });
 * ModifyFile takes its messages as an array (sent as NDJSON).
 */
import type { SignedInTestServer } from './in-process-server.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Answer {
  status: number;
  /** The answer's one JSON value (null when it has several lines). */
  body: Json;
  /** Every NDJSON line of the answer. */
  lines: Json[];
}

export function signedInApi(server: SignedInTestServer) {
  async function api(who: string, method: string, body: unknown = {}): Promise<Answer> {
    const token = server.tokens[who] ?? who;
    const ndjson = method === 'pfs_v2.API/ModifyFile';
    const response = await fetch(`${server.url}/api/${method}`, {
      method: 'POST',
      headers: {
        'content-type': ndjson ? 'application/x-ndjson' : 'application/json',
        authorization: `Bearer ${token}`,
      },
      body: ndjson
        ? (body as unknown[]).map((line) => JSON.stringify(line)).join('\n')
        : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const lines = (await response.text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Json);
    return { status: response.status, body: lines.length === 1 ? lines[0] : null, lines };
  }

  async function ok(who: string, method: string, body: unknown = {}): Promise<Answer> {
    const answer = await api(who, method, body);
    if (answer.status !== 200)
      throw new Error(`${who} ${method}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer;
  }

  return { api, ok };
}

export const repoRef = (project: string, name: string) => ({
  name,
  type: 'user',
  project: { name: project },
});

export const branchRef = (project: string, name: string, branch = 'master') => ({
  branch: { repo: repoRef(project, name), name: branch },
});

/** ModifyFile's messages that put one text file on a branch. */
export const putText = (project: string, repo: string, path: string, text: string) => [
  { setCommit: branchRef(project, repo) },
  { addFile: { path, raw: Buffer.from(text).toString('base64') } },
];
