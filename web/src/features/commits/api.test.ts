import { describe, expect, it } from 'vitest';
import type { CommitInfo } from '@ivory/api';
import { COMMIT_PAGE_SIZE, nextCommitPage } from './api.ts';

const commit = (id: string, parentId: string | null) =>
  ({ commit: { id }, parentCommit: parentId ? { id: parentId } : null }) as CommitInfo;

describe('nextCommitPage', () => {
  it('continues from the parent of the last commit of a full page', () => {
    const page = Array.from({ length: COMMIT_PAGE_SIZE }, (_, i) => commit(`c${i}`, `c${i + 1}`));
    expect(nextCommitPage(page)).toBe(`c${COMMIT_PAGE_SIZE}`);
  });
  it('stops after a short page or at the root commit', () => {
    expect(nextCommitPage([commit('a', 'b')])).toBeNull();
    const full = Array.from({ length: COMMIT_PAGE_SIZE }, (_, i) =>
      commit(`c${i}`, i === COMMIT_PAGE_SIZE - 1 ? null : `c${i + 1}`),
    );
    expect(nextCommitPage(full)).toBeNull();
  });
});
