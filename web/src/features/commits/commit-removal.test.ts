import { describe, expect, it } from 'vitest';
import type { CommitInfo } from '@ivory/api';
import { needsRecursive, removalBlocked, removalText } from './commit-removal.ts';

const info = (over: Partial<CommitInfo> = {}) =>
  ({
    commit: { id: 'abcdef0123456789', repo: { name: 'r', type: 'user', project: { name: 'p' } } },
    finished: { seconds: '1', nanos: 0 },
    childCommits: [],
    directSubvenance: [],
    ...over,
  }) as unknown as CommitInfo;
const child = { id: 'c2' } as CommitInfo['commit'];

describe('commit removal rules', () => {
  it('drops only commits without children', () => {
    expect(removalBlocked(info(), 'drop')).toBeNull();
    expect(removalBlocked(info({ childCommits: [child] }), 'drop')).toMatch(/newest/);
  });
  it('squashes only commits with children', () => {
    expect(removalBlocked(info({ childCommits: [child] }), 'squash')).toBeNull();
    expect(removalBlocked(info(), 'squash')).toMatch(/nowhere/);
  });
  it('refuses open commits', () => {
    expect(removalBlocked(info({ finished: null }), 'drop')).toMatch(/not finished/);
  });
  it('asks for recursive when there are downstream commits', () => {
    expect(needsRecursive(info())).toBe(false);
    const downstream = info({ directSubvenance: [child], childCommits: [child] });
    expect(needsRecursive(downstream)).toBe(true);
    expect(removalText(downstream, 'squash')).toMatch(/1 downstream commit/);
  });
  it('explains each action', () => {
    expect(removalText(info(), 'squash')).toMatch(/nothing is lost/);
    expect(removalText(info(), 'drop')).toMatch(/^Drop commit abcdef01\?/);
  });
});
