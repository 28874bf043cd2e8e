import { metadata, type pfs_v2 } from '@ivory/api/proto';
import { failedPrecondition, invalidArgument, notFound, unimplemented } from '../errors.ts';
import type { Cluster } from './cluster.ts';
import { defaultProject } from './pfs/pfs-requests.ts';
import type { PfsStore, RepoRef } from './pfs/pfs-store.ts';
import type { CommitRow, RepoRow, RepoType } from './pfs/rows.ts';
import type { MethodRegistry } from './platform.ts';
import { typedUnary } from './typed-method.ts';

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
    typedUnary(metadata.EditMetadataRequestSchema, async ({ edits }) => {
      store.transaction(() => {
        edits.forEach((edit, i) => {
          const target = resolveTarget(store, cluster, edit.target, `edits[${i}]`);
          target.write(applyOperation(target.read(), edit.op, `edits[${i}]`));
        });
      });
      return {} satisfies metadata.EditMetadataResponseJson;
    }),
  );
}

function applyOperation(current: MetadataMap, op: metadata.Edit['op'], field: string): MetadataMap {
  switch (op.case) {
    case 'replace':
      return { ...op.value.replacement };
    case 'addKey': {
      const { key, value } = op.value;
      if (key in current) throw failedPrecondition(`key ${JSON.stringify(key)} already exists`);
      return { ...current, [key]: value };
    }
    case 'editKey':
      return { ...current, [op.value.key]: op.value.value };
    case 'deleteKey': {
      const { [op.value.key]: _removed, ...rest } = current;
      return rest;
    }
    default:
      throw invalidArgument(`${field} needs one of replace, addKey, editKey, deleteKey`);
  }
}

function resolveTarget(
  store: PfsStore,
  cluster: Cluster,
  target: metadata.Edit['target'],
  field: string,
): MetadataTarget {
  switch (target.case) {
    case 'project': {
      const name = target.value.picker.value || defaultProject;
      return {
        read: () => JSON.parse(store.getProject(name).metadata) as MetadataMap,
        write: (metadata) => store.setProjectMetadata(name, metadata),
      };
    }
    case 'repo': {
      const repo = store.getRepo(repoOfPicker(target.value));
      return {
        read: () => JSON.parse(store.repoById(repo.id).metadata) as MetadataMap,
        write: (metadata) => store.setRepoMetadata(repo, metadata),
      };
    }
    case 'branch': {
      const { repo, name } = branchOfPicker(store, target.value);
      return {
        read: () => JSON.parse(store.getBranch(repo, name).metadata) as MetadataMap,
        write: (metadata) => store.setBranchMetadata(store.getBranch(repo, name), metadata),
      };
    }
    case 'commit': {
      const commit = resolveCommitPicker(store, target.value, `${field}.commit`);
      return {
        read: () => JSON.parse(store.commitByRowid(commit.rowid).metadata) as MetadataMap,
        write: (metadata) => store.setCommitMetadata(commit, metadata),
      };
    }
    case 'cluster':
      return { read: () => cluster.metadata(), write: (metadata) => cluster.setMetadata(metadata) };
    case 'pipeline':
      throw unimplemented('pipeline metadata is not implemented yet');
    default:
      throw invalidArgument(
        `${field} needs a target: project, repo, branch, commit, pipeline or cluster`,
      );
  }
}

function repoOfPicker(picker: pfs_v2.RepoPicker | undefined): RepoRef {
  const name = picker?.picker.value;
  return {
    project: name?.project?.picker.value || defaultProject,
    name: name?.name ?? '',
    type: (name?.type || 'user') as RepoType,
  };
}

function branchOfPicker(
  store: PfsStore,
  picker: pfs_v2.BranchPicker | undefined,
): { repo: RepoRow; name: string } {
  const name = picker?.picker.value;
  return { repo: store.getRepo(repoOfPicker(name?.repo)), name: name?.name ?? '' };
}

function resolveCommitPicker(
  store: PfsStore,
  given: pfs_v2.CommitPicker | undefined,
  field: string,
): CommitRow {
  const picker = given?.picker;
  switch (picker?.case) {
    case 'branchHead': {
      const { repo, name } = branchOfPicker(store, picker.value);
      return store.resolveCommit(repo, '', name);
    }
    case 'id': {
      const repo = store.getRepo(repoOfPicker(picker.value.repo));
      return store.resolveCommit(repo, picker.value.id, '');
    }
    case 'ancestor': {
      let commit = resolveCommitPicker(store, picker.value.start, `${field}.ancestor.start`);
      for (let i = picker.value.offset; i > 0; i--) {
        if (commit.parent_rowid === null)
          throw notFound(`commit ${commit.id} has no ancestor ${i} back`);
        commit = store.commitByRowid(commit.parent_rowid);
      }
      return commit;
    }
    case 'branchRoot':
      throw unimplemented('branchRoot commit pickers are not implemented yet');
    default:
      throw invalidArgument(`${field} needs branchHead, id, ancestor or branchRoot`);
  }
}
