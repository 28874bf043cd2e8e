import { describe, expect, it } from 'vitest';
import type { Rolldown } from 'vite';
import type { ScreenRoute } from '../src/app/route-table.ts';
import { routePreloads } from './route-preloads.ts';

/** A bundle chunk with only what routePreloads reads. */
function chunk(
  fileName: string,
  { moduleIds = [] as string[], imports = [] as string[], css = [] as string[] } = {},
): Rolldown.OutputChunk {
  return {
    fileName,
    moduleIds,
    imports,
    viteMetadata: { importedCss: new Set(css), importedAssets: new Set() },
  } as unknown as Rolldown.OutputChunk;
}

const entry = chunk('assets/index.js', {
  imports: ['assets/vendor.js'],
  css: ['assets/index.css'],
});
const bundle = [
  entry,
  chunk('assets/vendor.js'),
  chunk('assets/CommitScreen.js', {
    moduleIds: ['/web/src/features/commits/CommitScreen.tsx', '/web/src/features/files/List.tsx'],
    imports: ['assets/vendor.js', 'assets/antd.js'],
  }),
  chunk('assets/antd.js', { imports: ['assets/Tabs.js'] }),
  chunk('assets/Tabs.js', { css: ['assets/Tabs.css'] }),
  chunk('assets/shared.js', {
    moduleIds: ['/web/src/features/jobs/JobsScreen.tsx', '/web/src/ui/Table.tsx'],
    imports: ['assets/antd.js'],
  }),
];
const chunks = new Map(bundle.map((output) => [output.fileName, output]));

const routes: ScreenRoute[] = [
  { path: '/project/:projectId/repos/:repoId/commit/:commitId/*', screen: 'CommitScreen' },
  { path: '/project/:projectId/jobs/:tabId?', screen: 'JobsScreen' },
  { path: '/lineage/:projectId/repos/:repoId/commit/:commitId/*', screen: 'CommitScreen' },
];

describe('routePreloads', () => {
  const preloads = routePreloads(routes, entry, chunks, '/');
  const filesOf = (screen: number) =>
    preloads.screens[screen]![1].map((index) => preloads.files[index]);

  it("lists a screen's chunk, what it imports statically and their stylesheets, not the entry's", () => {
    expect(filesOf(0)).toEqual([
      '/assets/CommitScreen.js',
      '/assets/antd.js',
      '/assets/Tabs.js',
      '/assets/Tabs.css',
    ]);
  });

  it('finds a screen inside a shared chunk', () => {
    expect(filesOf(1)).toEqual([
      '/assets/shared.js',
      '/assets/antd.js',
      '/assets/Tabs.js',
      '/assets/Tabs.css',
    ]);
  });

  it('holds one entry per screen, its paths joined, each file once', () => {
    expect(preloads.screens.map(([pathPattern]) => pathPattern.split('|').length)).toEqual([2, 1]);
    expect(new Set(preloads.files).size).toBe(preloads.files.length);
  });

  it('fails the build when no module or several are named after a screen', () => {
    const unknown: ScreenRoute[] = [{ path: '/bolt', screen: 'BoltsScreen' }];
    expect(() => routePreloads(unknown, entry, chunks, '/')).toThrow('0 modules named BoltsScreen');
  });
});
