import type { MessageRun } from '../message-runs.ts';
import type { FileInfoLines } from './file-info-lines.ts';
import { hexToBytesField, int64, timestamp } from '../wire.ts';
import type { PfsStore } from './pfs-store.ts';
import {
  type BranchRow,
  type CommitRow,
  type ListedFile,
  type ProjectRow,
  type RepoRow,
} from './rows.ts';

/** Builds wire messages (wire-shapes.txt) from pfs rows. */
export class PfsMessages {
  constructor(private readonly store: PfsStore) {}

  project(name: string) {
    return { name };
  }

  projectInfo(row: ProjectRow) {
    return {
      project: this.project(row.name),
      description: row.description,
      authInfo: null,
      createdAt: timestamp(row.created_at),
      metadata: parseMap(row.metadata),
      createdBy: '',
    };
  }

  repo(row: RepoRow) {
    return { name: row.name, type: row.type, project: this.project(row.project) };
  }

  repoInfo(row: RepoRow) {
    const size = int64(this.store.repoSize(row));
    return {
      repo: this.repo(row),
      created: timestamp(row.created_at),
      sizeBytesUpperBound: size,
      description: row.description,
      branches: this.store.listBranches(row).map((branch) => this.branch(row, branch.name)),
      authInfo: null,
      details: { sizeBytes: size },
      metadata: parseMap(row.metadata),
    };
  }

  branch(repo: RepoRow, name: string) {
    return { repo: this.repo(repo), name };
  }

  branchInfo(repo: RepoRow, row: BranchRow) {
    const provenance = (JSON.parse(row.provenance) as string[]).map((name) =>
      this.branch(repo, name),
    );
    return {
      branch: this.branch(repo, row.name),
      head:
        row.head_rowid === null
          ? null
          : this.commit(this.store.commitByRowid(row.head_rowid), repo),
      provenance,
      subvenance: [],
      directProvenance: provenance,
      trigger: null,
      metadata: parseMap(row.metadata),
      createdBy: '',
      createdAt: timestamp(row.created_at),
      updatedAt: timestamp(row.updated_at),
      branchPropagationSpecs: [],
    };
  }

  commit(row: CommitRow, repo: RepoRow = this.store.repoById(row.repo_id)) {
    return {
      repo: this.repo(repo),
      id: row.id,
      branch: row.branch_name === null ? null : this.branch(repo, row.branch_name),
    };
  }

  commitInfo(row: CommitRow) {
    const repo = this.store.repoById(row.repo_id);
    const size = int64(this.store.commitSize(row));
    return {
      commit: this.commit(row, repo),
      origin: { kind: row.origin },
      description: row.description,
      parentCommit:
        row.parent_rowid === null
          ? null
          : this.commit(this.store.commitByRowid(row.parent_rowid), repo),
      childCommits: this.store.childCommits(row).map((child) => this.commit(child, repo)),
      started: timestamp(row.started_at),
      finishing: timestamp(row.finishing_at),
      finished: timestamp(row.finished_at),
      directProvenance: this.store.directProvenance(row).map((c) => this.commit(c)),
      directSubvenance: this.store.directSubvenance(row).map((c) => this.commit(c)),
      error: row.error,
      sizeBytesUpperBound: size,
      details: { sizeBytes: size, compactingTime: null, validatingTime: null },
      metadata: parseMap(row.metadata),
      createdBy: row.created_by,
      createdAt: timestamp(row.started_at),
      updatedAt: timestamp(row.finished_at ?? row.started_at),
    };
  }

  fileInfo(row: ListedFile, commit: ReturnType<PfsMessages['commit']>) {
    // Rows of one listing mostly share their write time: format it once per run of them.
    if (row.committed_at !== this.lastCommittedAt) {
      this.lastCommittedAt = row.committed_at;
      this.lastCommitted = timestamp(row.committed_at);
    }
    return {
      file: { commit, path: row.path, datum: '' },
      fileType: row.type,
      committed: this.lastCommitted,
      sizeBytes: int64(row.size_bytes),
      hash: row.hash ? hexToBytesField(row.hash) : '',
    };
  }

  /**
   * One chunk of a listing's rows as a message run (message-runs.ts): the FileInfo messages
   * fileInfo makes, and their NDJSON lines written straight from the rows by `lines`.
   */
  fileInfoRun(
    rows: readonly ListedFile[],
    commit: CommitMessage,
    lines: FileInfoLines,
  ): MessageRun {
    return {
      messages: () => rows.map((row) => this.fileInfo(row, commit)),
      resultLines: () => lines.write(rows),
    };
  }

  private lastCommittedAt: number | null = null;
  private lastCommitted: string | null = null;
}

export type CommitMessage = ReturnType<PfsMessages['commit']>;
export type FileInfoMessage = ReturnType<PfsMessages['fileInfo']>;

function parseMap(json: string): Record<string, string> {
  return JSON.parse(json) as Record<string, string>;
}
