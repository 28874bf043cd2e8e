/** Small HTTP helpers for talking to a running server in tests. */

/** Response bodies are checked field by field with expect(); a loose type keeps tests readable. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface JsonResponse {
  status: number;
  contentType: string | null;
  body: Json;
}

export async function call(
  baseUrl: string,
  method: string,
  body: unknown = {},
): Promise<JsonResponse> {
  const response = await fetch(`${baseUrl}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: text ? JSON.parse(text) : null,
  };
}

/** Calls a method and fails the test unless it answered 200. */
export async function ok(baseUrl: string, method: string, body: unknown = {}): Promise<Json> {
  const response = await call(baseUrl, method, body);
  if (response.status !== 200) {
    throw new Error(`${method} answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body;
}

export interface StreamResponse {
  status: number;
  contentType: string | null;
  text: string;
  /** Parsed lines: each {result} or {error}. */
  lines: Json[];
}

export async function callStream(
  baseUrl: string,
  method: string,
  body: unknown = {},
): Promise<StreamResponse> {
  const response = await fetch(`${baseUrl}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const lines =
    response.status === 200
      ? text
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : [JSON.parse(text)];
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    lines,
  };
}

/** Stream results, failing the test on an error line or status. */
export async function results(
  baseUrl: string,
  method: string,
  body: unknown = {},
): Promise<Json[]> {
  const response = await callStream(baseUrl, method, body);
  if (response.status !== 200)
    throw new Error(`${method} answered ${response.status}: ${response.text}`);
  const error = response.lines.find((line) => line.error);
  if (error) throw new Error(`${method} failed mid-stream: ${JSON.stringify(error)}`);
  return response.lines.map((line) => line.result);
}

export const repo = (name: string, project = 'default') => ({
  name,
  type: 'user',
  project: { name: project },
});
export const commitOn = (repoName: string, branch = 'master', project = 'default') => ({
  repo: repo(repoName, project),
  branch: { repo: repo(repoName, project), name: branch },
});
export const commitId = (repoName: string, id: string, project = 'default') => ({
  repo: repo(repoName, project),
  id,
});

export type ModifyMessage =
  | { setCommit: unknown }
  | { addFile: { path: string; raw: string } }
  | { deleteFile: { path: string } }
  | { copyFile: { dst: string; src: unknown } };

export async function modifyFile(
  baseUrl: string,
  messages: ModifyMessage[],
): Promise<JsonResponse> {
  const response = await fetch(`${baseUrl}/api/pfs_v2.API/ModifyFile`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: messages.map((message) => JSON.stringify(message)).join('\n') + '\n',
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: text ? JSON.parse(text) : null,
  };
}

/** Writes files into one new finished commit on a branch; returns the commit id. */
export async function commitFiles(
  baseUrl: string,
  repoName: string,
  files: Record<string, string | Buffer>,
  options: { branch?: string; deletions?: string[]; description?: string } = {},
): Promise<string> {
  const branch = options.branch ?? 'master';
  const commit = await ok(baseUrl, 'pfs_v2.API/StartCommit', {
    branch: { repo: repo(repoName), name: branch },
    description: options.description ?? '',
  });
  const messages: ModifyMessage[] = [{ setCommit: commit }];
  for (const path of options.deletions ?? []) messages.push({ deleteFile: { path } });
  for (const [path, content] of Object.entries(files)) {
    messages.push({ addFile: { path, raw: Buffer.from(content).toString('base64') } });
  }
  const written = await modifyFile(baseUrl, messages);
  if (written.status !== 200)
    throw new Error(`ModifyFile answered ${written.status}: ${JSON.stringify(written.body)}`);
  await ok(baseUrl, 'pfs_v2.API/FinishCommit', { commit });
  return commit.id as string;
}

/** Reads a whole file through GetFile. */
export async function getFile(
  baseUrl: string,
  repoName: string,
  commitRef: string,
  path: string,
): Promise<Buffer> {
  const lines = await results(baseUrl, 'pfs_v2.API/GetFile', {
    file: { commit: commitId(repoName, commitRef), path },
  });
  return Buffer.concat(lines.map((chunk: string) => Buffer.from(chunk, 'base64')));
}
