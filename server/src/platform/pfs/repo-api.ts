// The repo methods of pfs_v2.API: create, inspect, list and delete repos.
import { pfs_v2 } from '@ivory/api/proto';
import { safeNumber, typedStream, typedUnary } from '../typed-method.ts';
import type { PfsApiContext } from './pfs-api-context.ts';
import { failedPrecondition } from '../../errors.ts';
import { projectNameOf, repoRefOf } from './pfs-refs.ts';
import { repoLabel } from './pfs-store-repos.ts';
import type { RepoType } from './rows.ts';

/** Registers the repo methods of pfs_v2.API. */
export function registerRepoApi(api: PfsApiContext): void {
  const { store, messages, add } = api;

  add(
    'CreateRepo',
    typedUnary(pfs_v2.CreateRepoRequestSchema, async (req) => {
      const ref = repoRefOf(req.repo);
      // A system repo (a pipeline's spec or meta repo) goes with a user repo of its name.
      if (ref.type !== 'user' && !store.findRepo({ ...ref, type: 'user' }))
        throw failedPrecondition(
          `cannot create a system repo without a corresponding 'user' repo: ${repoLabel(ref)}`,
        );
      store.createRepo(ref, req.description, req.update);
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
      const ref = repoRefOf(req.repo);
      store.transaction(() => {
        store.deleteRepo(ref);
        // A user repo's meta repo goes with it (a pipeline's output repo: with the pipeline).
        const meta = { ...ref, type: 'meta' as const };
        const spec = { ...ref, type: 'spec' as const };
        if (ref.type === 'user' && store.findRepo(meta) && !store.findRepo(spec))
          store.deleteRepo(meta);
      });
      return { deleted: true };
    }),
  );
}
