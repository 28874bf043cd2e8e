import type { LoaderFunctionArgs } from 'react-router';
import type { RouteLoaderDeps } from '../../data/route-loader-deps.ts';
import { prefetchFolderOrFile } from '../files/prefetch-folder-or-file.ts';

/**
 * The commit route's loader: starts the file browser's first requests (once the API may be
 * called) in parallel with the screen's code, and returns at once: the route never waits for
 * data, the screen's queries pick the answers up.
 */
export function commitRouteLoader({ queryClient, client, apiAccessible }: RouteLoaderDeps) {
  return ({ params }: LoaderFunctionArgs) => {
    const ref = {
      project: params.projectId ?? '',
      repo: params.repoId ?? '',
      commitId: params.commitId ?? '',
      path: params['*'] ?? '',
    };
    void (async () => {
      if (await apiAccessible()) await prefetchFolderOrFile(queryClient, client, ref);
    })();
    return null;
  };
}
