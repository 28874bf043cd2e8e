import { failedPrecondition, invalidArgument, notFound, unimplemented } from '../errors.ts';
import {
  readInt,
  readList,
  readObject,
  readOptionalObject,
  readString,
  readStringMap,
  type WireObject,
} from './wire.ts';
import type { Cluster } from './cluster.ts';
import { defaultProject } from './pfs/pfs-requests.ts';
import type { PfsStore, RepoRef } from './pfs/pfs-store.ts';
import type { CommitRow, RepoRow, RepoType } from './pfs/rows.ts';
import { unary, type MethodRegistry } from './platform.ts';

type MetadataMap = Record<string, string>;

/** One edit target: how to read and write its metadata map. */
interface MetadataTarget {
  read(): MetadataMap;
  write(metadata: MetadataMap): void;
}

/** metadata.API/EditMetadata: every edit in one transaction, so a failing edit changes nothing. */
export function registerMetadataApi(
  methods: MethodRegistry,
  store: PfsStore,
  cluster: Cluster,
): void {
  methods.set(
    'metadata.API/EditMetadata',
    unary(async (raw) => {
      const edits = readList(readObject(raw, 'request').edits, 'edits');
      store.transaction(() => {
        edits.forEach((value, i) => {
          const edit = readObject(value, `edits[${i}]`);
          const target = resolveTarget(store, cluster, edit, `edits[${i}]`);
          target.write(applyOperation(target.read(), edit, `edits[${i}]`));
        });
      });
      return {};
    }),
  );
}

function applyOperation(current: MetadataMap, edit: WireObject, field: string): MetadataMap {
  if (edit.replace !== undefined) {
    return readStringMap(
      readObject(edit.replace, `${field}.replace`).replacement,
      `${field}.replace.replacement`,
    );
  }
  if (edit.addKey !== undefined) {
    const op = readObject(edit.addKey, `${field}.addKey`);
    const key = readString(op.key, `${field}.addKey.key`);
    if (key in current) throw failedPrecondition(`key ${JSON.stringify(key)} already exists`);
    return { ...current, [key]: readString(op.value, `${field}.addKey.value`) };
  }
  if (edit.editKey !== undefined) {
    const op = readObject(edit.editKey, `${field}.editKey`);
    return {
      ...current,
      [readString(op.key, `${field}.editKey.key`)]: readString(op.value, `${field}.editKey.value`),
    };
  }
  if (edit.deleteKey !== undefined) {
    const key = readString(
      readObject(edit.deleteKey, `${field}.deleteKey`).key,
      `${field}.deleteKey.key`,
    );
    const { [key]: _removed, ...rest } = current;
    return rest;
  }
  throw invalidArgument(`${field} needs one of replace, addKey, editKey, deleteKey`);
}

function resolveTarget(
  store: PfsStore,
  cluster: Cluster,
  edit: WireObject,
  field: string,
): MetadataTarget {
  if (edit.project !== undefined) {
    const name =
      readString(readObject(edit.project, `${field}.project`).name, `${field}.project.name`) ||
      defaultProject;
    return {
      read: () => JSON.parse(store.getProject(name).metadata) as MetadataMap,
      write: (metadata) => store.setProjectMetadata(name, metadata),
    };
  }
  if (edit.repo !== undefined) {
    const repo = store.getRepo(readRepoPicker(edit.repo, `${field}.repo`));
    return {
      read: () => JSON.parse(store.repoById(repo.id).metadata) as MetadataMap,
      write: (metadata) => store.setRepoMetadata(repo, metadata),
    };
  }
  if (edit.branch !== undefined) {
    const { repo, name } = readBranchPicker(store, edit.branch, `${field}.branch`);
    return {
      read: () => JSON.parse(store.getBranch(repo, name).metadata) as MetadataMap,
      write: (metadata) => store.setBranchMetadata(store.getBranch(repo, name), metadata),
    };
  }
  if (edit.commit !== undefined) {
    const commit = resolveCommitPicker(store, edit.commit, `${field}.commit`);
    return {
      read: () => JSON.parse(store.commitByRowid(commit.rowid).metadata) as MetadataMap,
      write: (metadata) => store.setCommitMetadata(commit, metadata),
    };
  }
  if (edit.cluster !== undefined) {
    return { read: () => cluster.metadata(), write: (metadata) => cluster.setMetadata(metadata) };
  }
  if (edit.pipeline !== undefined) throw unimplemented('pipeline metadata is not implemented yet');
  throw invalidArgument(
    `${field} needs a target: project, repo, branch, commit, pipeline or cluster`,
  );
}

function readRepoPicker(value: unknown, field: string): RepoRef {
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

function readBranchPicker(
  store: PfsStore,
  value: unknown,
  field: string,
): { repo: RepoRow; name: string } {
  const name = readObject(readObject(value, field).name, `${field}.name`);
  return {
    repo: store.getRepo(readRepoPicker(name.repo, `${field}.name.repo`)),
    name: readString(name.name, `${field}.name.name`),
  };
}

function resolveCommitPicker(store: PfsStore, value: unknown, field: string): CommitRow {
  const picker = readObject(value, field);
  if (picker.branchHead !== undefined) {
    const { repo, name } = readBranchPicker(store, picker.branchHead, `${field}.branchHead`);
    return store.resolveCommit(repo, '', name);
  }
  if (picker.id !== undefined) {
    const byId = readObject(picker.id, `${field}.id`);
    const repo = store.getRepo(readRepoPicker(byId.repo, `${field}.id.repo`));
    return store.resolveCommit(repo, readString(byId.id, `${field}.id.id`), '');
  }
  const ancestor = readOptionalObject(picker.ancestor, `${field}.ancestor`);
  if (ancestor) {
    let commit = resolveCommitPicker(store, ancestor.start, `${field}.ancestor.start`);
    for (let i = readInt(ancestor.offset, `${field}.ancestor.offset`); i > 0; i--) {
      if (commit.parent_rowid === null)
        throw notFound(`commit ${commit.id} has no ancestor ${i} back`);
      commit = store.commitByRowid(commit.parent_rowid);
    }
    return commit;
  }
  if (picker.branchRoot !== undefined)
    throw unimplemented('branchRoot commit pickers are not implemented yet');
  throw invalidArgument(`${field} needs branchHead, id, ancestor or branchRoot`);
}
