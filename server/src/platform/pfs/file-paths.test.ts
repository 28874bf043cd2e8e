import { describe, expect, it } from 'vitest';
import {
  ancestorDirs,
  baseName,
  normalisePath,
  normaliseRelativeName,
  parentDir,
} from './file-paths.ts';

describe('file paths', () => {
  it.each([
    ['a/b.txt', '/a/b.txt'],
    ['/a//b/./c', '/a/b/c'],
    ['/a/../b', '/b'],
    ['', '/'],
    ['/', '/'],
  ])('normalises %j to %j', (input, expected) => {
    expect(normalisePath(input)).toBe(expected);
  });

  it.each(['../x', '/a/../../x', 'a\u0000b', 'a\nb'])('rejects %j', (input) => {
    expect(() => normalisePath(input)).toThrow(/escapes|control/);
  });

  it('rejects any .. in upload names', () => {
    expect(() => normaliseRelativeName('a/../b')).toThrow(/\.\./);
  });

  it('splits stored paths', () => {
    expect(parentDir('/a/b.txt')).toBe('/a/');
    expect(parentDir('/a/b/')).toBe('/a/');
    expect(parentDir('/a')).toBe('/');
    expect(baseName('/a/b/')).toBe('b');
    expect(ancestorDirs('/a/b/c.txt')).toEqual(['/a/', '/a/b/']);
  });
});
