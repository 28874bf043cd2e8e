import { describe, expect, it } from 'vitest';
import type { Commit } from '@ivory/api';
import { changeKind, nextHistoryStart, readFindCommits } from './history.ts';

const commit = (id: string) => ({ id }) as Commit;
const parents: Record<string, string | null> = { c5: 'c4', c4: 'c3', c3: 'c2', c2: 'c1', c1: null };
const parentOf = (id: string) => parents[id] ?? null;

describe('readFindCommits', () => {
  it('keeps the found commits in order and the last searched commit', () => {
    const lines = [
      { foundCommit: commit('c5'), commitsSearched: 1 },
      { foundCommit: commit('c3'), commitsSearched: 3 },
      { lastSearchedCommit: commit('c1'), commitsSearched: 5 },
    ];
    expect(readFindCommits(lines)).toEqual({ found: ['c5', 'c3'], lastSearched: 'c1' });
  });
  it('reads an empty search', () => {
    expect(readFindCommits([{ lastSearchedCommit: commit('c1'), commitsSearched: 1 }])).toEqual({
      found: [],
      lastSearched: 'c1',
    });
    expect(readFindCommits([])).toEqual({ found: [], lastSearched: null });
  });
});

describe('nextHistoryStart', () => {
  it('continues from the parent of the last searched commit when the page is full', () => {
    expect(nextHistoryStart({ found: ['c5', 'c3'], lastSearched: 'c3' }, 2, parentOf)).toBe('c2');
  });
  it('stops when fewer than the limit were found (the root was reached)', () => {
    expect(nextHistoryStart({ found: ['c5'], lastSearched: 'c1' }, 2, parentOf)).toBeNull();
    expect(nextHistoryStart({ found: [], lastSearched: 'c1' }, 2, parentOf)).toBeNull();
  });
  it('stops when the last commit found is the root', () => {
    expect(nextHistoryStart({ found: ['c2', 'c1'], lastSearched: 'c1' }, 2, parentOf)).toBeNull();
  });
});

describe('changeKind', () => {
  it('tells added, changed and deleted apart', () => {
    expect(changeKind(true, false)).toBe('added');
    expect(changeKind(true, true)).toBe('changed');
    expect(changeKind(false, true)).toBe('deleted');
  });
});
