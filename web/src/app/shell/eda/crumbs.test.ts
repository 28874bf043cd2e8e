import { describe, expect, it } from 'vitest';
import { edaCrumbsOf } from './crumbs.ts';

describe('benchmarking breadcrumbs', () => {
  it.each([
    ['/', []],
    ['/flows', []],
    ['/bolt', ['Benchmarking', 'Bolts']],
    ['/flow', ['Benchmarking', 'Flows']],
    ['/flow/yosys', ['Benchmarking', 'Flows', 'yosys']],
    ['/case/alu%208', ['Benchmarking', 'Cases', 'alu 8']],
    ['/updatebolt/soc', ['Benchmarking', 'Bolts', 'Upload to soc']],
    ['/setup', ['Benchmarking', 'Setup']],
    ['/toString', []],
  ])('%s', (path, labels) => {
    expect(edaCrumbsOf(path).map((crumb) => crumb.label)).toEqual(labels);
  });

  it('links every crumb but the last, back up the path', () => {
    expect(edaCrumbsOf('/case/alu-8').map((crumb) => crumb.to)).toEqual(['/', '/case', undefined]);
    expect(edaCrumbsOf('/setup').map((crumb) => crumb.to)).toEqual(['/', undefined]);
  });
});
