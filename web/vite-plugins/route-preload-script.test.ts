import { afterEach, describe, expect, it } from 'vitest';
import { routePreloadScript } from './route-preload-script.ts';
import type { RoutePreloads } from './route-preloads.ts';

const preloads: RoutePreloads = {
  files: ['/assets/Commit-1.js', '/assets/antd-2.js', '/assets/Tabs-3.css', '/assets/Repos-4.js'],
  screens: [
    ['^/project/[^/]+/repos/[^/]+/commit/[^/]+(?:/.*)?/*$', [0, 1, 2]],
    ['^/project/[^/]+/repos(?:/[^/]+)?/*$', [3, 1]],
  ],
};

/** Runs the script as index.html would, on `path`; returns the links it added, as text. */
function runAt(path: string): string[] {
  window.history.replaceState(null, '', path);
  new Function(routePreloadScript(preloads))();
  return [...document.head.querySelectorAll('link')].map((link) =>
    // jsdom has no `as` property of its own: it reads back what the script set.
    [link.rel, link.as, `crossorigin="${link.crossOrigin}"`, link.getAttribute('href')]
      .filter(Boolean)
      .join(' '),
  );
}

afterEach(() => {
  document.head.replaceChildren();
  window.history.replaceState(null, '', '/');
});

describe('routePreloadScript', () => {
  it("preloads the matching screen's modules and stylesheets", () => {
    expect(runAt('/project/default/repos/images/commit/abc/big/')).toEqual([
      'modulepreload crossorigin="" /assets/Commit-1.js',
      'modulepreload crossorigin="" /assets/antd-2.js',
      'preload style crossorigin="" /assets/Tabs-3.css',
    ]);
  });

  it('preloads a file once when several screens match', () => {
    preloads.screens.push(['^/project/[^/]+/repos/x(?:/.*)?/*$', [1, 3]]);
    try {
      expect(runAt('/project/default/repos/x')).toEqual([
        'modulepreload crossorigin="" /assets/Repos-4.js',
        'modulepreload crossorigin="" /assets/antd-2.js',
      ]);
    } finally {
      preloads.screens.pop();
    }
  });

  it('preloads nothing on a path no screen has', () => {
    expect(runAt('/nope/at/all')).toEqual([]);
  });
});
