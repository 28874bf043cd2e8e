import { describe, expect, it } from 'vitest';
import { aroundStream, linePieceChars, readRuns, runStream } from '../message-runs.ts';
import { FileInfoLines } from './file-info-lines.ts';
import { PfsMessages, type CommitMessage } from './pfs-messages.ts';
import type { PfsStore } from './pfs-store.ts';
import type { ListedFile } from './rows.ts';

// fileInfo and fileInfoRun use nothing of the store.
const messages = new PfsMessages(null as unknown as PfsStore);
const repo = { name: 'r"epo\\', type: 'user' as const, project: { name: 'défault' } };
const commits: CommitMessage[] = [
  { repo, id: '0123456789abcdef0123456789abcdef', branch: { repo, name: 'master' } },
  { repo, id: 'fedcba9876543210fedcba9876543210', branch: null },
];
const row = (path: string, more: Partial<ListedFile> = {}): ListedFile => ({
  path,
  type: 'FILE',
  hash: 'ab'.repeat(32),
  size_bytes: 10,
  committed_at: 1_700_000_000_123,
  ...more,
});
const rows: ListedFile[] = [
  row('/', { type: 'DIR', hash: '', size_bytes: 0 }),
  row('/dir/', { type: 'DIR', hash: '', size_bytes: 2 ** 40 }),
  row('/dir/plain.txt'),
  row('/dir/same-hash.txt'),
  row('/dir/other-hash.txt', { hash: '00ff'.repeat(16), committed_at: 1 }),
  row('/dir/empty', { hash: '', size_bytes: 0, committed_at: 1 }),
  row('/quo"te\\back\\slash', { committed_at: 0 }),
  row('/ctl\u0001\u001f\t\n\r\b\f\u007f', { hash: 'ab'.repeat(32) }),
  row('/ünïcødé/日本語/😀.txt'),
  row('/</script>\u2028\u2029'),
];
const expected = (commit: CommitMessage, list: readonly ListedFile[]) =>
  list.map((r) => JSON.stringify({ result: messages.fileInfo(r, commit) }) + '\n').join('');

describe('FileInfoLines', () => {
  it('writes what JSON.stringify makes of each FileInfo message, byte for byte', () => {
    for (const commit of commits) {
      const lines = new FileInfoLines(commit);
      expect(lines.write(rows).join('')).toBe(expected(commit, rows));
      // Later calls reuse what the earlier ones cached (time, hash) and still match.
      expect(lines.write([...rows].reverse()).join('')).toBe(expected(commit, [...rows].reverse()));
      expect(lines.write([])).toEqual([]);
    }
  });

  it('writes many rows in pieces of whole lines, none much longer than linePieceChars', () => {
    const commit = commits[0] as CommitMessage;
    const many = Array.from({ length: 1000 }, (_, i) => row(`/many/${'x'.repeat(i % 50)}-${i}`));
    const pieces = new FileInfoLines(commit).write(many);
    expect(pieces.length).toBeGreaterThan(5);
    for (const piece of pieces) {
      expect(piece.endsWith('\n')).toBe(true);
      expect(piece.length).toBeLessThan(linePieceChars + 1000);
    }
    expect(pieces.join('')).toBe(expected(commit, many));
  });
});

describe('message runs', () => {
  const commit = commits[0] as CommitMessage;
  const source = () =>
    runStream(async function* () {
      const lines = new FileInfoLines(commit);
      yield messages.fileInfoRun(rows.slice(0, 4), commit, lines);
      yield messages.fileInfoRun(rows.slice(4), commit, lines);
    });

  it('are read a message at a time by any consumer', async () => {
    const read: unknown[] = [];
    for await (const message of source()) read.push(message);
    expect(read).toEqual(rows.map((r) => messages.fileInfo(r, commit)));
  });

  it('are read a run at a time by the gateway, as the same lines', async () => {
    const runs = readRuns(source());
    if (runs === null) throw new Error('a run stream has runs');
    let text = '';
    for await (const run of runs) text += run.resultLines().join('');
    expect(text).toBe(expected(commit, rows));
    expect(readRuns((async function* () {})())).toBeNull();
  });

  it('keep their runs through a wrapper that acts around the stream (a role check)', async () => {
    const events: string[] = [];
    const wrapped = (stream: () => AsyncIterable<unknown>) =>
      aroundStream(() => {
        events.push('checked');
        return { stream: stream(), end: () => events.push('ended') };
      });
    const runs = readRuns(wrapped(source));
    if (runs === null) throw new Error('a wrapped run stream has runs');
    let text = '';
    for await (const run of runs) text += run.resultLines().join('');
    expect(text).toBe(expected(commit, rows));
    expect(events).toEqual(['checked', 'ended']);
    // A plain stream wrapped so: one run per message, read either way.
    const plain = async function* () {
      yield { a: 1 };
      yield { b: '"' };
    };
    const plainRuns = readRuns(wrapped(plain));
    let plainText = '';
    for await (const run of plainRuns ?? []) plainText += run.resultLines().join('');
    expect(plainText).toBe('{"result":{"a":1}}\n{"result":{"b":"\\""}}\n');
    const read: unknown[] = [];
    for await (const message of wrapped(plain)) read.push(message);
    expect(read).toEqual([{ a: 1 }, { b: '"' }]);
  });
});
