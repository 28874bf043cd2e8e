import { describe, expect, it } from 'vitest';
import {
  RENDERER_MAX_BYTES,
  previewDecision,
  previewKindOf,
  previewRegistry,
  type PreviewRenderer,
} from './registry.ts';
import { rendererModules } from './renderers/index.ts';

const cases: Array<[string, PreviewRenderer]> = [
  ['/notes/README.md', 'markdown'],
  ['/site/index.html', 'web'],
  ['/feed.xml', 'iframe'],
  ['/src/main.py', 'code'],
  ['/config.json', 'code'],
  ['/data/iris.csv', 'csv'],
  ['/data/iris.tsv', 'csv'],
  ['/logo.png', 'image'],
  ['/icon.svg', 'image'],
  ['/clip.mp4', 'video'],
  ['/tone.wav', 'audio'],
  ['/paper.pdf', 'pdf'],
  ['/log.txt.gz', 'gz'],
  ['/report.docx', 'doc'],
  ['/blob.bin', 'unknown'],
  ['/Makefile', 'code'],
];

describe('preview registry', () => {
  it.each(cases)('%s → %s', (path, renderer) => {
    expect(previewKindOf(path).renderer).toBe(renderer);
  });

  it('covers every renderer the spec lists, each with a lazily loaded component', () => {
    const renderers = new Set(cases.map(([, renderer]) => renderer));
    expect([...renderers].sort()).toEqual(Object.keys(rendererModules).sort());
    expect(Object.keys(RENDERER_MAX_BYTES).sort()).toEqual(Object.keys(rendererModules).sort());
  });

  it('offers view source for markdown, html, xml, csv and svg only', () => {
    const withSource = Object.entries(previewRegistry)
      .filter(([, kind]) => kind.viewSource)
      .map(([extension]) => extension)
      .sort();
    expect(withSource).toEqual(['csv', 'htm', 'html', 'markdown', 'md', 'svg', 'xml']);
  });

  it('marks xls and xlsx not previewable and every other kind previewable', () => {
    expect(previewKindOf('/a.xls').previewable).toBe(false);
    expect(previewKindOf('/a.XLSX').previewable).toBe(false);
    const others = Object.entries(previewRegistry).filter(
      ([ext]) => !['xls', 'xlsx'].includes(ext),
    );
    expect(others.every(([, kind]) => kind.previewable)).toBe(true);
    expect(previewDecision({ path: '/a.xlsx', sizeBytes: '10' })).toMatchObject({
      show: 'download',
      reason: 'not-previewable',
    });
  });

  it('gives every kind a language string and an icon', () => {
    for (const kind of Object.values(previewRegistry)) {
      expect(typeof kind.language).toBe('string');
      expect(kind.icon).not.toBe('');
    }
  });

  it('says a file is too large for whole-file renderers, never for streamed ones', () => {
    const huge = String(1024 ** 3);
    expect(previewDecision({ path: '/big.md', sizeBytes: huge }).show).toBe('too-large');
    expect(previewDecision({ path: '/big.json', sizeBytes: huge }).show).toBe('too-large');
    expect(previewDecision({ path: '/big.csv', sizeBytes: huge }).show).toBe('preview');
    expect(previewDecision({ path: '/big.mp4', sizeBytes: huge }).show).toBe('preview');
    expect(previewDecision({ path: '/big.gz', sizeBytes: huge }).show).toBe('preview');
    expect(previewDecision({ path: '/small.md', sizeBytes: '100' }).show).toBe('preview');
    expect(previewDecision({ path: '/x.bin', sizeBytes: '1' })).toMatchObject({ show: 'download' });
  });
});
