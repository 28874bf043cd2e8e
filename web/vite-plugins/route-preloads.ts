import path from 'node:path';
import type { Rolldown } from 'vite';
import type { ScreenRoute } from '../src/app/route-table.ts';
import { routePatternSource } from './route-pattern.ts';

type OutputChunk = Rolldown.OutputChunk;

/**
 * Which files to preload on which paths: each file once, then per screen a RegExp of its paths
 * (see routePatternSource) and the indexes of its files.
 */
export interface RoutePreloads {
  files: string[];
  screens: Array<[pathPattern: string, fileIndexes: number[]]>;
}

/** `chunk` and every chunk it imports statically, directly or not (what loading it fetches). */
function withStaticImports(chunk: OutputChunk, chunks: Map<string, OutputChunk>): OutputChunk[] {
  const found = new Map([[chunk.fileName, chunk]]);
  for (const current of found.values()) {
    for (const fileName of current.imports) {
      const imported = chunks.get(fileName);
      if (imported && !found.has(fileName)) found.set(fileName, imported);
    }
  }
  return [...found.values()];
}

/** A chunk's files: its script and the stylesheets Vite loads with it. */
const filesOf = (chunk: OutputChunk): string[] => [
  chunk.fileName,
  ...(chunk.viteMetadata?.importedCss ?? []),
];

/**
 * The chunk that holds `screen`'s module (the module named after the screen, see ScreenName): the
 * chunk of its own the router's dynamic import loads, or the group chunk the module was put in.
 */
function screenChunk(screen: string, chunks: Map<string, OutputChunk>): OutputChunk {
  const found = [...chunks.values()].flatMap((chunk) =>
    chunk.moduleIds.filter((id) => path.parse(id).name === screen).map(() => chunk),
  );
  if (found.length !== 1) {
    throw new Error(`route preload: ${found.length} modules named ${screen}.* in the bundle`);
  }
  return found[0]!;
}

/**
 * Per screen of `routes`, the files (under `base`) its code needs beyond those the entry chunk
 * loads: the chunk with the screen's module, the chunks it imports statically, their stylesheets.
 */
export function routePreloads(
  routes: readonly { path: ScreenRoute['path']; screen: string }[],
  entry: OutputChunk,
  chunks: Map<string, OutputChunk>,
  base: string,
): RoutePreloads {
  const loadedByEntry = new Set(withStaticImports(entry, chunks).flatMap(filesOf));
  const files: string[] = [];
  const fileIndex = (file: string) => {
    const href = base + file;
    const index = files.indexOf(href);
    return index >= 0 ? index : files.push(href) - 1;
  };
  const screens = [...new Set(routes.map((route) => route.screen))].map(
    (screen): [string, number[]] => {
      const pathPattern = routes
        .filter((route) => route.screen === screen)
        .map((route) => routePatternSource(route.path))
        .join('|');
      const needed = withStaticImports(screenChunk(screen, chunks), chunks)
        .flatMap(filesOf)
        .filter((file) => !loadedByEntry.has(file));
      return [pathPattern, [...new Set(needed)].map(fileIndex)];
    },
  );
  return { files, screens };
}
