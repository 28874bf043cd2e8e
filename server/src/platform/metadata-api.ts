import { metadata } from '@ivory/api/proto';
import { failedPrecondition, invalidArgument, unimplemented } from '../errors.ts';
import type { Cluster } from './cluster.ts';
import { defaultProject } from './pfs/pfs-requests.ts';
import type { PfsStore } from './pfs/pfs-store.ts';
import { repoPickerRef, resolveBranchPicker, resolveCommitPicker } from './pfs/pickers.ts';
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
      const repo = store.getRepo(repoPickerRef(target.value));
      return {
        read: () => JSON.parse(store.repoById(repo.id).metadata) as MetadataMap,
        write: (metadata) => store.setRepoMetadata(repo, metadata),
      };
    }
    case 'branch': {
      const { repo, name } = resolveBranchPicker(store, target.value, `${field}.branch`);
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
