import { describe, expect, it } from 'vitest';
import { formatVersion } from '../../format/version.ts';
import { fsckHeadline, summariseFsck } from './fsck-report.ts';

describe('summariseFsck', () => {
  it('splits problems from fixes and skips empty fields', () => {
    const summary = summariseFsck([
      { fix: '', error: 'commit p/r@c1: file /a: blob x missing' },
      { fix: 'removed upload u1', error: '' },
      { fix: '', error: 'upload u2: repo p/gone no longer exists' },
    ]);
    expect(summary.problems).toEqual([
      'commit p/r@c1: file /a: blob x missing',
      'upload u2: repo p/gone no longer exists',
    ]);
    expect(summary.fixes).toEqual(['removed upload u1']);
  });
  it('headlines a healthy store and counts problems', () => {
    expect(fsckHeadline(summariseFsck([]))).toBe('No problems found');
    expect(fsckHeadline({ problems: ['a'], fixes: [] })).toBe('1 problem found');
    expect(fsckHeadline({ problems: ['a', 'b'], fixes: [] })).toBe('2 problems found');
  });
});

describe('formatVersion', () => {
  it('joins the parts', () => {
    expect(formatVersion({ major: 2, minor: 11, micro: 3, additional: '' })).toBe('2.11.3');
    expect(formatVersion({ major: 2, minor: 0, micro: 0, additional: 'rc1' })).toBe('2.0.0-rc1');
    // pachd's builds carry the separator themselves; it is not doubled.
    expect(formatVersion({ major: 2, minor: 11, micro: 0, additional: '-ivory' })).toBe(
      '2.11.0-ivory',
    );
  });
});
