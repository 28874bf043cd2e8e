import { describe, expect, it } from 'vitest';
import { compileDatumGlob } from './datum-glob.ts';
const t = (g: string, p: string) => compileDatumGlob(g).test(p);
// Cases of pachd's glob library (ohmyglob's extglob and capture tests) on pipeline inputs.
describe('compileDatumGlob', () => {
  it('reads globs as pachd does: extglobs, negation, captures, alternatives', () => {
    expect(t('!(**)', '/foo1')).toBe(false);
    expect(t('/foo?1', '/foo11')).toBe(true);
    expect(t('/foo*2', '/foo2')).toBe(true);
    expect(t('/foo(?)(?)', '/foo12')).toBe(true);
    expect(compileDatumGlob('/foo(?)(?)').exec('/foo12')).toEqual(['/foo12', '1', '2']);
    expect(compileDatumGlob('test/a*(a|b)/*(*).go').exec('/test/aaaa/x.go')).toEqual([
      '/test/aaaa/x.go',
      'aaa',
      'x',
    ]);
    expect(t('/test/!(a|b)/x.go', '/test/x/x.go')).toBe(true);
    expect(t('/test/!(a|b)/x.go', '/test/a/x.go')).toBe(false);
    expect(t('/!(a)', '/aa')).toBe(true);
    expect(t('/!(a)', '/a')).toBe(false);
    expect(t('/*.(a|b)', '/a.a.a')).toBe(true);
    expect(t('/*.(a|b)', '/a.bb')).toBe(false);
    expect(t('/{cat,bat,[fr]at}', '/rat')).toBe(true);
    expect(t('/(*)/', '/foo-1')).toBe(true);
    expect(t('/', '/')).toBe(true);
    expect(t('/*(@(a))a@(c)', '/aaac')).toBe(true);
    expect(t('/*;[1-9]**([0-9])*', '/"MS.FILE;13"')).toBe(true);
  });
});
