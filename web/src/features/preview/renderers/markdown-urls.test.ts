import { describe, expect, it } from 'vitest';
import { commitUrlTransform, resolveInCommit } from './markdown-urls.ts';

const fileUrl = '/files/default/samples/abc/docs/README.md';
const page = '/project/default/repos/samples/commit/abc/docs/README.md';

describe('markdown URLs inside a commit', () => {
  it('resolves a relative image against the file URL', () => {
    expect(commitUrlTransform(fileUrl, page)('img/plot.png', 'src')).toBe(
      '/files/default/samples/abc/docs/img/plot.png',
    );
  });

  it('resolves a relative link against the console page of the file', () => {
    expect(commitUrlTransform(fileUrl, page)('../data/iris.csv', 'href')).toBe(
      '/project/default/repos/samples/commit/abc/data/iris.csv',
    );
  });

  it('keeps absolute, anchor and scheme URLs, drops unsafe ones', () => {
    const transform = commitUrlTransform(fileUrl, page);
    expect(transform('https://example.com/x', 'href')).toBe('https://example.com/x');
    expect(transform('#usage', 'href')).toBe('#usage');
    expect(transform('javascript:alert(1)', 'href')).toBe('');
  });

  it('never climbs out of the commit', () => {
    expect(resolveInCommit('../../../../other/repo.png', fileUrl)).toBe('');
  });
});
