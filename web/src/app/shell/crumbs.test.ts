import { describe, expect, it } from 'vitest';
import { crumbsOf } from './crumbs.ts';

const id = 'a'.repeat(32);

describe('shell breadcrumbs', () => {
  it.each([
    ['/project/p/repos', ['p', 'Repositories']],
    [
      '/project/p/repos/images/commit/' + id + '/dir/',
      ['p', 'Repositories', 'images', 'Commit aaaaaaaa'],
    ],
    ['/project/p/repos/images/upload', ['p', 'Repositories', 'images', 'Upload']],
    [
      '/project/p/pipelines/edges/jobs/' + id + '/logs',
      ['p', 'Pipelines', 'edges', 'Job aaaaaaaa'],
    ],
    [
      '/project/p/pipelines/edges/jobs/' + id + '/logs/datum/' + id,
      ['p', 'Pipelines', 'edges', 'Job aaaaaaaa', 'Datum aaaaaaaa'],
    ],
    ['/project/p/jobs/' + id + '/pipeline/edges/logs', ['p', 'Jobs', 'edges', 'Job aaaaaaaa']],
    ['/project/p/trials/t1', ['p', 'Trials', 't1']],
    ['/lineage/p', ['p', 'Lineage']],
    ['/lineage/p/pipelines/edges', ['p', 'Lineage', 'edges']],
    ['/lineage/my%20proj/repos/r', ['my proj', 'Lineage', 'r']],
  ])('%s', (path, labels) => {
    expect(crumbsOf(path).map((crumb) => crumb.label)).toEqual(labels);
  });

  it('links every crumb but the last, back up the path', () => {
    const crumbs = crumbsOf('/project/p/pipelines/edges/jobs/' + id + '/logs/datum/x');
    expect(crumbs.map((crumb) => crumb.to)).toEqual([
      '/lineage/p',
      '/project/p/pipelines',
      '/lineage/p/pipelines/edges',
      '/project/p/pipelines/edges/jobs/' + id + '/logs',
      undefined,
    ]);
  });
});
