import { describe, expect, it } from 'vitest';
import { compileGlob } from './glob.ts';

const cases: Array<[string, string, boolean]> = [
  ['/*', '/a.txt', true],
  ['/*', '/dir', true],
  ['/*', '/dir/a.txt', false],
  ['/*/*', '/dir/a.txt', true],
  ['/**', '/dir/sub/a.txt', true],
  ['/**/*.csv', '/a.csv', true],
  ['/**/*.csv', '/x/y/a.csv', true],
  ['/**/*.csv', '/x/y/a.txt', false],
  ['/file?.txt', '/file1.txt', true],
  ['/file?.txt', '/file10.txt', false],
  ['/file[0-2].txt', '/file2.txt', true],
  ['/file[!0-2].txt', '/file3.txt', true],
  ['/a.txt', '/abtxt', false],
  ['/', '/', true],
];

describe('compileGlob', () => {
  it.each(cases)('%s matches %s → %s', (pattern, path, expected) => {
    expect(compileGlob(pattern).test(path)).toBe(expected);
  });
});
