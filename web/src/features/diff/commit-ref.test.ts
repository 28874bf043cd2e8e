import { describe, expect, it } from 'vitest';
import { resolveCommitRef } from './commit-ref.ts';

const commit = (id: string) => ({ commit: { id } }) as Parameters<typeof resolveCommitRef>[1][0];
const commits = [
  commit('0123456789abcdef0123456789abcdef'),
  commit('01239999999999999999999999999999'),
  commit('fedcba98765432100123456789abcdef'),
];

describe('resolveCommitRef', () => {
  it('takes the 8 characters the console shows as the commit they start', () => {
    expect(resolveCommitRef('fedcba98', commits)).toEqual({
      id: 'fedcba98765432100123456789abcdef',
    });
    expect(resolveCommitRef(' 0123456 ', commits)).toEqual({
      id: '0123456789abcdef0123456789abcdef',
    });
  });

  it('says when the start matches no commit or several', () => {
    expect(resolveCommitRef('abcd1234', commits)).toEqual({
      error: 'No commit of this repo starts with abcd1234.',
    });
    expect(resolveCommitRef('0123', commits)).toEqual({
      error: '0123 starts 2 commits: type more of the ID.',
    });
    expect(resolveCommitRef('01', commits)).toMatchObject({ error: expect.stringMatching(/4/) });
  });

  it('passes a whole ID, a branch or a reference as typed; empty means the parent', () => {
    expect(resolveCommitRef('0123456789abcdef0123456789abcdef', [])).toEqual({
      id: '0123456789abcdef0123456789abcdef',
    });
    expect(resolveCommitRef('master^2', commits)).toEqual({ id: 'master^2' });
    expect(resolveCommitRef('', commits)).toEqual({ id: '' });
  });
});
