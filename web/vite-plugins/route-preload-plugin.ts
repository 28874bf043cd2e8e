import type { Plugin, Rolldown } from 'vite';
import { screenRouteTable, shellOf } from '../src/app/route-table.ts';
import { routePreloadScript } from './route-preload-script.ts';
import { routePreloads } from './route-preloads.ts';

type OutputChunk = Rolldown.OutputChunk;

/**
 * Puts `script` into `html` right before the first stylesheet link, or at the end of the head: a
 * script after a stylesheet waits for it to load before it runs.
 */
function beforeFirstStylesheet(html: string, script: string): string {
  const stylesheet = /^([ \t]*)<link rel="stylesheet"/m.exec(html);
  const at = stylesheet?.index ?? html.indexOf('</head>');
  const indent = stylesheet?.[1] ?? '';
  return `${html.slice(0, at)}${indent}<script>${script}</script>\n${html.slice(at)}`;
}

/**
 * Starts a page's screen code with the entry's: adds to the built index.html a small script that
 * preloads, for the screen of the page's path (route-table.ts), the chunk files the router would
 * otherwise only ask for once the entry has loaded, run and matched the path.
 */
export function routePreloadPlugin(): Plugin {
  let base = '/';
  return {
    name: 'ivory:route-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      // After Vite has added the entry's tags: the script goes after them, so the browser asks
      // for the entry's files first, the screen's next.
      order: 'post',
      handler(html, { bundle, chunk: entry }) {
        if (!bundle || !entry) return;
        const chunks = new Map(
          Object.values(bundle)
            .filter((output): output is OutputChunk => output.type === 'chunk')
            .map((chunk) => [chunk.fileName, chunk]),
        );
        // A shell's layout loads beside the screen on the paths it frames.
        const shellRoutes = screenRouteTable.flatMap((route) => {
          const shell = shellOf(route);
          return shell ? [{ path: route.path, screen: shell }] : [];
        });
        const preloads = routePreloads([...screenRouteTable, ...shellRoutes], entry, chunks, base);
        return beforeFirstStylesheet(html, routePreloadScript(preloads));
      },
    },
  };
}
