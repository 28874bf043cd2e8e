// The branch methods of pfs_v2.API: create, inspect, list and delete branches.
import { pfs_v2 } from '@ivory/api/proto';
import { failedPrecondition } from '../../errors.ts';
import { typedStream, typedUnary } from '../typed-method.ts';
import type { PfsApiContext } from './pfs-api-context.ts';
import { branchRefOf, commitRefOf, repoRefOf } from './pfs-refs.ts';
import { resolveCommitRef } from './pfs-requests.ts';

/** Registers the branch methods of pfs_v2.API. */
export function registerBranchApi(api: PfsApiContext): void {
  const { store, messages, add } = api;

  add(
    'CreateBranch',
    typedUnary(pfs_v2.CreateBranchRequestSchema, async (req) => {
      const branch = branchRefOf(req.branch);
      const repo = store.getRepo(branch.repo);
      const head = req.head
        ? resolveCommitRef(store, commitRefOf(req.head, branch.repo)).commit
        : null;
      if (head && head.repo_id !== repo.id)
        throw failedPrecondition('the head commit must belong to the branch repo');
      const provenance = req.provenance.map((b) => b.name);
      store.createBranch(repo, branch.name, head, provenance);
      return {};
    }),
  );

  add(
    'InspectBranch',
    typedUnary(pfs_v2.InspectBranchRequestSchema, async (req) => {
      const branch = branchRefOf(req.branch);
      const repo = store.getRepo(branch.repo);
      return messages.branchInfo(repo, store.getBranch(repo, branch.name));
    }),
  );

  add(
    'ListBranch',
    typedStream(pfs_v2.ListBranchRequestSchema, async function* (req) {
      const repo = store.getRepo(repoRefOf(req.repo));
      const branches = store.listBranches(repo);
      if (req.reverse) branches.reverse();
      for (const branch of branches) yield messages.branchInfo(repo, branch);
    }),
  );

  add(
    'DeleteBranch',
    typedUnary(pfs_v2.DeleteBranchRequestSchema, async (req) => {
      const branch = branchRefOf(req.branch);
      store.deleteBranch(store.getRepo(branch.repo), branch.name);
      return {};
    }),
  );
}
