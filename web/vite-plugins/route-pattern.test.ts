import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { screenRouteTable } from '../src/app/route-table.ts';
import { routePatternSource } from './route-pattern.ts';

/** Paths to try every pattern on: each pattern filled in a few ways, and near misses. */
function samplePaths(pattern: string): string[] {
  const fill = (optional: 'keep' | 'drop', splat: string) =>
    pattern
      .split('/')
      .map((segment) => {
        if (segment === '*') return splat;
        if (segment.endsWith('?')) return optional === 'keep' ? 'tab' : null;
        return segment.startsWith(':') ? 'x-1' : segment;
      })
      .filter((segment) => segment !== null)
      .join('/');
  const filled = [
    fill('keep', ''),
    fill('drop', ''),
    fill('keep', 'big/f1.txt'),
    fill('drop', 'dir/'),
  ].map((path) => path.replace(/\/+$/, '') || '/');
  return filled.flatMap((path) => [
    path,
    `${path}/`,
    `${path}/extra`,
    `${path}extra`,
    path.toUpperCase(),
    path.split('/').slice(0, -1).join('/') || '/',
  ]);
}

describe('routePatternSource', () => {
  const patterns = screenRouteTable.map((route) => route.path);
  const paths = [...new Set(patterns.flatMap(samplePaths))];

  it.each(patterns)('matches what the router matches for %s', (pattern) => {
    const matcher = new RegExp(routePatternSource(pattern), 'i');
    for (const path of paths) {
      const routerMatches = matchRoutes([{ path: pattern }], path) !== null;
      expect({ path, matches: matcher.test(path) }).toEqual({ path, matches: routerMatches });
    }
  });

  it('rejects what it cannot translate', () => {
    expect(() => routePatternSource('/a/*/b')).toThrow('* must end');
    expect(() => routePatternSource('/files/:name.txt')).toThrow('unsupported segment');
  });
});
