import { invalidArgument, notFound } from '../../errors.ts';
import { readInt, readObject, readOptionalObject, readString } from '../wire.ts';
import { defaultProject } from './pfs-requests.ts';
import type { PfsStore, RepoRef } from './pfs-store.ts';
import type { CommitRow, RepoRow, RepoType } from './rows.ts';

/** Readers for the pfs "picker" messages (RepoPicker, BranchPicker, CommitPicker). */

export function readRepoPicker(value: unknown, field: string): RepoRef {
  const name = readObject(readObject(value, field).name, `${field}.name`);
  return {
    project:
      readString(
        readObject(name.project, `${field}.name.project`).name,
        `${field}.name.project.name`,
      ) || defaultProject,
    name: readString(name.name, `${field}.name.name`),
    type: (readString(name.type, `${field}.name.type`) || 'user') as RepoType,
  };
}

export function readBranchPicker(
  store: PfsStore,
  value: unknown,
  field: string,
): { repo: RepoRow; name: string } {
  const name = readObject(readObject(value, field).name, `${field}.name`);
  const branch = readString(name.name, `${field}.name.name`);
  if (!branch) throw invalidArgument(`${field}.name.name is required`);
  return { repo: store.getRepo(readRepoPicker(name.repo, `${field}.name.repo`)), name: branch };
}

/** Resolves a CommitPicker: branchHead, id, ancestor{offset, start} or branchRoot{offset, branch}. */
export function resolveCommitPicker(store: PfsStore, value: unknown, field: string): CommitRow {
  const picker = readObject(value, field);
  const branchHead = readOptionalObject(picker.branchHead, `${field}.branchHead`);
  if (branchHead) {
    const { repo, name } = readBranchPicker(store, branchHead, `${field}.branchHead`);
    return store.resolveCommit(repo, '', name);
  }
  const byId = readOptionalObject(picker.id, `${field}.id`);
  if (byId) {
    const repo = store.getRepo(readRepoPicker(byId.repo, `${field}.id.repo`));
    const id = readString(byId.id, `${field}.id.id`);
    if (!id) throw invalidArgument(`${field}.id.id is required`);
    return store.resolveCommit(repo, id, '');
  }
  const ancestor = readOptionalObject(picker.ancestor, `${field}.ancestor`);
  if (ancestor) {
    const start = resolveCommitPicker(store, ancestor.start, `${field}.ancestor.start`);
    const offset = readInt(ancestor.offset, `${field}.ancestor.offset`);
    const found = offset > 0 ? store.ancestorOf(start, offset) : start;
    if (!found) throw notFound(`commit ${start.id} has no ancestor ${offset} back`);
    return found;
  }
  const root = readOptionalObject(picker.branchRoot, `${field}.branchRoot`);
  if (root) {
    // The branch's first commit, then `offset` commits towards the head.
    const { repo, name } = readBranchPicker(store, root.branch, `${field}.branchRoot.branch`);
    const head = store.resolveCommit(repo, '', name);
    const offset = readInt(root.offset, `${field}.branchRoot.offset`);
    let seen = 0;
    for (const commit of store.commitChain(head, { stopAt: null, reverse: true })) {
      if (seen === offset) return commit;
      seen++;
    }
    throw notFound(`branch ${name} has no commit ${offset} after its root`);
  }
  throw invalidArgument(`${field} needs branchHead, id, ancestor or branchRoot`);
}
