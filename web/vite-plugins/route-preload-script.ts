import type { RoutePreloads } from './route-preloads.ts';

/**
 * The inline script index.html runs before the entry module: for every screen whose paths match
 * the page's path it adds a preload link per file, so the browser fetches the screen's code along
 * with the entry's instead of after the entry has run and the router has matched the path. A
 * dynamic import later finds the link in the document and adds none of its own (Vite's preload
 * helper looks); a stylesheet is only preloaded, the import still applies it. Plain browser
 * JavaScript in a string: it runs before any bundle has loaded.
 */
export function routePreloadScript(preloads: RoutePreloads): string {
  // `<` escaped: the data sits inside a <script> element.
  const data = JSON.stringify(preloads).replaceAll('<', '\\u003c');
  return `{
  const preloads = ${data};
  const hrefs = new Set();
  for (const [pathPattern, fileIndexes] of preloads.screens) {
    if (!new RegExp(pathPattern, 'i').test(location.pathname)) continue;
    for (const index of fileIndexes) hrefs.add(preloads.files[index]);
  }
  for (const href of hrefs) {
    const link = document.createElement('link');
    if (href.endsWith('.css')) {
      link.rel = 'preload';
      link.as = 'style';
    } else {
      link.rel = 'modulepreload';
    }
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  }
}`;
}
