import type { pfs_v2 } from '@ivory/api/proto';
import { invalidArgument, notFound } from '../../errors.ts';
import { defaultProject } from './pfs-requests.ts';
import type { PfsStore, RepoRef } from './pfs-store.ts';
import type { CommitRow, RepoRow, RepoType } from './rows.ts';

/** The pfs "picker" messages (RepoPicker, BranchPicker, CommitPicker) of generated requests. */

export function repoPickerRef(picker: pfs_v2.RepoPicker | undefined): RepoRef {
  const name = picker?.picker.value;
  return {
    project: name?.project?.picker.value || defaultProject,
    name: name?.name ?? '',
    type: (name?.type || 'user') as RepoType,
  };
}

export function resolveBranchPicker(
  store: PfsStore,
  picker: pfs_v2.BranchPicker | undefined,
  field: string,
): { repo: RepoRow; name: string } {
  const name = picker?.picker.value;
  if (!name?.name) throw invalidArgument(`${field}.name.name is required`);
  return { repo: store.getRepo(repoPickerRef(name.repo)), name: name.name };
}

/** Resolves a CommitPicker: branchHead, id, ancestor{offset, start} or branchRoot{offset, branch}. */
export function resolveCommitPicker(
  store: PfsStore,
  given: pfs_v2.CommitPicker | undefined,
  field: string,
): CommitRow {
  const picker = given?.picker;
  switch (picker?.case) {
    case 'branchHead': {
      const { repo, name } = resolveBranchPicker(store, picker.value, `${field}.branchHead`);
      return store.resolveCommit(repo, '', name);
    }
    case 'id': {
      const repo = store.getRepo(repoPickerRef(picker.value.repo));
      if (!picker.value.id) throw invalidArgument(`${field}.id.id is required`);
      return store.resolveCommit(repo, picker.value.id, '');
    }
    case 'ancestor': {
      const start = resolveCommitPicker(store, picker.value.start, `${field}.ancestor.start`);
      const offset = picker.value.offset;
      const found = offset > 0 ? store.ancestorOf(start, offset) : start;
      if (!found) throw notFound(`commit ${start.id} has no ancestor ${offset} back`);
      return found;
    }
    case 'branchRoot': {
      // The branch's first commit, then `offset` commits towards the head.
      const at = `${field}.branchRoot.branch`;
      const { repo, name } = resolveBranchPicker(store, picker.value.branch, at);
      const head = store.resolveCommit(repo, '', name);
      const offset = picker.value.offset;
      let seen = 0;
      for (const commit of store.commitChain(head, { stopAt: null, reverse: true })) {
        if (seen === offset) return commit;
        seen++;
      }
      throw notFound(`branch ${name} has no commit ${offset} after its root`);
    }
    default:
      throw invalidArgument(`${field} needs branchHead, id, ancestor or branchRoot`);
  }
}
