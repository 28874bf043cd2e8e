import { gzipSync } from 'node:zlib';
import type { Commit } from '@ivory/api';
export { tarEntries } from '../../server/test/helpers/tar-entries.ts';

/** Direct calls to the platform API from a test (setup and checks), no browser involved. */

export type Json = Record<string, unknown>;

export const repoOf = (name: string, project = 'default') => ({
  name,
  type: 'user',
  project: { name: project },
});

export async function call<T = Json>(
  baseUrl: string,
  method: string,
  body: unknown = {},
): Promise<T> {
  const response = await fetch(`${baseUrl}/api/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} answered ${response.status}: ${text}`);
  return (text === '' ? {} : JSON.parse(text)) as T;
}

export async function createRepo(
  baseUrl: string,
  name: string,
  description = '',
  project = 'default',
) {
  // update: a retried worker runs beforeAll again on the same server.
  await call(baseUrl, 'pfs_v2.API/CreateRepo', {
    repo: repoOf(name, project),
    description,
    update: true,
  });
}

/** Creates a project unless it exists (another spec, or a retried worker, may have made it). */
export async function createProjectIfMissing(baseUrl: string, name: string, description = '') {
  await call(baseUrl, 'pfs_v2.API/CreateProject', { project: { name }, description }).catch(
    (error: Error) => {
      if (!/already exists|"code":\s*6\b/i.test(error.message)) throw error;
    },
  );
}

/** ModifyFile with an NDJSON body of already-encoded message lines. */
export async function modifyFileLines(baseUrl: string, lines: Iterable<string>): Promise<void> {
  const body = [...lines].join('\n') + '\n';
  const response = await fetch(`${baseUrl}/api/pfs_v2.API/ModifyFile`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });
  if (!response.ok)
    throw new Error(`ModifyFile answered ${response.status}: ${await response.text()}`);
}

/** Writes files (and deletions) in one new finished commit on a branch; returns its id. */
export async function commitFiles(
  baseUrl: string,
  repo: string,
  files: Record<string, string | Uint8Array>,
  options: { branch?: string; description?: string; deletions?: string[]; project?: string } = {},
): Promise<string> {
  const commit = await call<Commit>(baseUrl, 'pfs_v2.API/StartCommit', {
    branch: { repo: repoOf(repo, options.project), name: options.branch ?? 'master' },
    description: options.description ?? '',
  });
  const lines = [JSON.stringify({ setCommit: commit })];
  for (const path of options.deletions ?? []) lines.push(JSON.stringify({ deleteFile: { path } }));
  for (const [path, content] of Object.entries(files)) {
    lines.push(JSON.stringify({ addFile: { path, raw: Buffer.from(content).toString('base64') } }));
  }
  await modifyFileLines(baseUrl, lines);
  await call(baseUrl, 'pfs_v2.API/FinishCommit', { commit });
  return commit.id;
}

/**
 * One commit holding `count` small files in one folder, written by ONE ModifyFile request of
 * `count` addFile messages. Names: `<folder>/f000000.txt` ….
 */
export async function commitManyFiles(
  baseUrl: string,
  repo: string,
  folder: string,
  count: number,
): Promise<string> {
  const commit = await call<Commit>(baseUrl, 'pfs_v2.API/StartCommit', {
    branch: { repo: repoOf(repo), name: 'master' },
    description: `${count} files`,
  });
  const raw = Buffer.from('small file\n').toString('base64');
  function* lines() {
    yield JSON.stringify({ setCommit: commit });
    for (let i = 0; i < count; i++) {
      yield JSON.stringify({ addFile: { path: `${folder}/${manyFileName(i)}`, raw } });
    }
  }
  await modifyFileLines(baseUrl, lines());
  await call(baseUrl, 'pfs_v2.API/FinishCommit', { commit });
  return commit.id;
}

export const manyFileName = (index: number) => `f${String(index).padStart(6, '0')}.txt`;

/** A one-page PDF with a filled rectangle and a line of text, offsets computed. */
export function tinyPdf(text = 'Hello PDF'): Buffer {
  const content = `0.2 0.4 0.8 rg 20 20 160 60 re f BT /F1 18 Tf 30 100 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 150] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(out.length);
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A mono 16-bit PCM WAV of a sine tone. */
export function tinyWav(seconds = 1, sampleRate = 8000): Buffer {
  const samples = Math.floor(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 8000), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

export const gzip = (text: string) => gzipSync(Buffer.from(text));
