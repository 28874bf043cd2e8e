// The repo methods of pfs_v2.API: create, inspect, list and delete repos.
import { pfs_v2 } from '@ivory/api/proto';
import { safeNumber, typedStream, typedUnary } from '../typed-method.ts';
import type { PfsApiContext } from './pfs-api-context.ts';
import { projectNameOf, repoRefOf } from './pfs-refs.ts';
import type { RepoType } from './rows.ts';

/** Registers the repo methods of pfs_v2.API. */
export function registerRepoApi(api: PfsApiContext): void {
  const { store, messages, add } = api;

  add(
    'CreateRepo',
    typedUnary(pfs_v2.CreateRepoRequestSchema, async (req) => {
      store.createRepo(repoRefOf(req.repo), req.description, req.update);
      return {};
    }),
  );

  add(
    'InspectRepo',
    typedUnary(pfs_v2.InspectRepoRequestSchema, async (req) => {
      return messages.repoInfo(store.getRepo(repoRefOf(req.repo)));
    }),
  );

  add(
    'ListRepo',
    typedStream(pfs_v2.ListRepoRequestSchema, async function* (req) {
      const type = req.type;
      const projects = req.projects.map(projectNameOf);
      let repos = store.listRepos({ type: type ? (type as RepoType) : null, projects });
      const page = req.page;
      const pageSize = page ? safeNumber(page.pageSize, 'page.pageSize') : 0;
      if (page && pageSize > 0) {
        const start = safeNumber(page.pageIndex, 'page.pageIndex') * pageSize;
        repos = repos.slice(start, start + pageSize);
      }
      for (const repo of repos) yield messages.repoInfo(repo);
    }),
  );

  add(
    'DeleteRepo',
    typedUnary(pfs_v2.DeleteRepoRequestSchema, async (req) => {
      store.deleteRepo(repoRefOf(req.repo));
      return { deleted: true };
    }),
  );
}
