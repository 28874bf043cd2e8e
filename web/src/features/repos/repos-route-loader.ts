import type { LoaderFunctionArgs } from 'react-router';
import type { RouteLoaderDeps } from '../../data/route-loader-deps.ts';

/**
 * The repos list's loader: starts the list's first requests (the first page of repos, their
 * count and the project) once the API may be called, in parallel with the screen's code and the
 * sign-in step's GET /auth/config, and returns at once: the screen's queries pick the answers up.
 * The query code is imported here, not at the top: it belongs to the screen's chunks, which
 * index.html already preloads for this path, and stays out of the entry.
 */
export function reposRouteLoader({ queryClient, client, apiAccessible }: RouteLoaderDeps) {
  return ({ params }: LoaderFunctionArgs) => {
    const project = params.projectId ?? '';
    void (async () => {
      if (!(await apiAccessible())) return;
      const [{ projectQuery, repoCountQuery, repoPageQuery }, { REPO_PAGE_SIZE }] =
        await Promise.all([import('./queries.ts'), import('./repo-page-size.ts')]);
      await Promise.allSettled([
        queryClient.prefetchQuery(repoPageQuery(client, project, 0, REPO_PAGE_SIZE)),
        queryClient.prefetchQuery(repoCountQuery(client, project)),
        queryClient.prefetchQuery(projectQuery(client, project)),
      ]);
    })();
    return null;
  };
}
