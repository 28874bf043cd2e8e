import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../storage/database.ts';
import { LogStore } from './logs.ts';

let dir: string;
let db: Db;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ivory-logs-'));
  db = openDatabase(dir);
});

afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

const line = (jobId: string, message: string) => ({
  project: 'p',
  pipeline: 'q',
  jobId,
  datumId: '',
  user: true,
  master: false,
  message,
});

describe('LogStore.scan', () => {
  it('reads a job’s lines in pages, in order, without other jobs’ lines', () => {
    const logs = new LogStore(db);
    for (let i = 0; i < 25; i++) {
      logs.append(line('a', `a${i}`));
      if (i % 3 === 0) logs.append(line('b', `b${i}`));
    }
    const read = [...logs.scan({ project: 'p', pipeline: 'q', jobId: 'a' }, 0, 4)];
    expect(read.map((l) => l.message)).toEqual(Array.from({ length: 25 }, (_, i) => `a${i}`));
  });

  it('leaves out lines appended while it reads (a follower gets those from its subscription)', () => {
    const logs = new LogStore(db);
    for (let i = 0; i < 10; i++) logs.append(line('a', `old${i}`));
    const seen: string[] = [];
    for (const l of logs.scan({ jobId: 'a' }, 0, 3)) {
      seen.push(l.message);
      logs.append(line('a', `new${seen.length}`));
    }
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => `old${i}`));
    expect(logs.query({ jobId: 'a' })).toHaveLength(20);
  });

  it('with a tail, reads only the last lines', () => {
    const logs = new LogStore(db);
    for (let i = 0; i < 10; i++) logs.append(line('a', `l${i}`));
    expect([...logs.scan({ jobId: 'a' }, 3)].map((l) => l.message)).toEqual(['l7', 'l8', 'l9']);
  });
});
