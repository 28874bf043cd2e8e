import { describe, expect, it } from 'vitest';
import type { CommitInfo } from '@ivory/api';
import { fileChanges } from './history.ts';

const at = (id: string, hash: string | null) => ({
  commit: { commit: { id } } as CommitInfo,
  hash,
});
const ids = (changes: ReturnType<typeof fileChanges>) =>
  changes.map((change) => `${change.commit.commit.id}:${change.change}`);

describe('fileChanges', () => {
  it('keeps the commits where the hash differs from the older commit', () => {
    const walk = [at('c5', null), at('c4', 'h2'), at('c3', 'h2'), at('c2', 'h1'), at('c1', null)];
    expect(ids(fileChanges(walk))).toEqual(['c5:deleted', 'c3:changed', 'c2:added']);
  });
  it('compares the last entry of a page with the commit past it', () => {
    expect(ids(fileChanges([at('c3', 'h1')], at('c2', 'h1')))).toEqual([]);
    expect(ids(fileChanges([at('c3', 'h1')], at('c2', 'h0')))).toEqual(['c3:changed']);
    expect(ids(fileChanges([at('c1', 'h1')]))).toEqual(['c1:added']);
  });
});
