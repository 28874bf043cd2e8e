import { createHash } from 'node:crypto';
import { compileGlob } from '../pfs/glob.ts';
import type { PfsStore } from '../pfs/pfs-store.ts';
import type { CommitRow, FileRow } from '../pfs/rows.ts';
import type { InputSpec } from './spec.ts';

/** One input file of a datum, where it comes from and where it appears under /pfs. */
export interface DatumFile {
  /** The input's name: the file appears at /pfs/<input>/<path>. */
  input: string;
  commitRowid: number;
  path: string;
  hash: string;
  sizeBytes: number;
  committedAt: number;
  emptyFile: boolean;
}

export interface PlannedDatum {
  id: string;
  files: DatumFile[];
}

interface KeyedDatum {
  files: DatumFile[];
  key: string;
}

/** The commit each pfs/cron input reads (by input name). */
export type InputCommits = Map<string, CommitRow>;

/** A datum's identity: a hash of its input files' names, paths and content hashes. */
export function datumId(files: DatumFile[]): string {
  const hasher = createHash('sha256');
  for (const file of files) hasher.update(`${file.input}\0${file.path}\0${file.hash}\n`);
  return hasher.digest('hex');
}

/** Splits the inputs into datums (Pachyderm's glob, cross, union, join and group semantics). */
export function planDatums(
  store: PfsStore,
  input: InputSpec,
  commits: InputCommits,
): PlannedDatum[] {
  const seen = new Set<string>();
  const out: PlannedDatum[] = [];
  for (const datum of expand(store, input, commits)) {
    const id = datumId(datum.files);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ id, files: datum.files });
  }
  return out;
}

function expand(store: PfsStore, input: InputSpec, commits: InputCommits): KeyedDatum[] {
  switch (input.kind) {
    case 'pfs':
      return globDatums(store, input.name, input.glob, input.joinOn || input.groupBy, {
        emptyFiles: input.emptyFiles,
        commit: commits.get(input.name),
      });
    case 'cron':
      return globDatums(store, input.name, '/', '', {
        emptyFiles: false,
        commit: commits.get(input.name),
      });
    case 'union':
      return input.children.flatMap((child) => expand(store, child, commits));
    case 'cross': {
      let product: KeyedDatum[] = [{ files: [], key: '' }];
      for (const child of input.children) {
        const datums = expand(store, child, commits);
        product = product.flatMap((left) =>
          datums.map((right) => ({ files: [...left.files, ...right.files], key: '' })),
        );
      }
      return product;
    }
    case 'join': {
      const perChild = input.children.map((child) => ({
        outer: child.kind === 'pfs' && child.outerJoin,
        byKey: groupByKey(expand(store, child, commits)),
      }));
      const keys = [...new Set(perChild.flatMap((c) => [...c.byKey.keys()]))].sort();
      const result: KeyedDatum[] = [];
      for (const key of keys) {
        const present = perChild.filter((c) => c.byKey.has(key));
        if (present.length < perChild.length && !present.some((c) => c.outer)) continue;
        let product: KeyedDatum[] = [{ files: [], key }];
        for (const child of present) {
          const datums = child.byKey.get(key) ?? [];
          product = product.flatMap((left) =>
            datums.map((right) => ({ files: [...left.files, ...right.files], key })),
          );
        }
        result.push(...product);
      }
      return result;
    }
    case 'group': {
      const merged = new Map<string, DatumFile[]>();
      for (const child of input.children) {
        for (const datum of expand(store, child, commits)) {
          merged.set(datum.key, [...(merged.get(datum.key) ?? []), ...datum.files]);
        }
      }
      return [...merged.keys()].sort().map((key) => ({ key, files: merged.get(key) ?? [] }));
    }
  }
}

function groupByKey(datums: KeyedDatum[]): Map<string, KeyedDatum[]> {
  const byKey = new Map<string, KeyedDatum[]>();
  for (const datum of datums) byKey.set(datum.key, [...(byKey.get(datum.key) ?? []), datum]);
  return byKey;
}

/** "$1-$2" with the glob's capture groups filled in. */
function expandKey(template: string, match: (string | null)[]): string {
  return template.replace(/\$(\d+)/g, (_, n: string) => match[Number(n)] ?? '');
}

function globDatums(
  store: PfsStore,
  inputName: string,
  glob: string,
  keyTemplate: string,
  options: { emptyFiles: boolean; commit: CommitRow | undefined },
): KeyedDatum[] {
  const commit = options.commit;
  if (!commit) return [];
  const rows = store.allFiles(commit);
  const files = rows.filter((row) => row.type === 'FILE');
  const toFile = (row: FileRow): DatumFile => ({
    input: inputName,
    commitRowid: commit.rowid,
    path: row.path,
    hash: row.hash,
    sizeBytes: row.size_bytes,
    committedAt: row.committed_at,
    emptyFile: options.emptyFiles,
  });
  if (glob.replace(/\/+/g, '') === '') {
    return files.length === 0 ? [] : [{ files: files.map(toFile), key: '' }];
  }
  const pattern = compileGlob(glob, { captureGroups: true });
  const filesOnly = glob.includes('**');
  const datums: KeyedDatum[] = [];
  for (const row of filesOnly ? files : rows) {
    const bare = row.type === 'DIR' ? row.path.slice(0, -1) : row.path;
    const match = pattern.exec(bare);
    if (!match) continue;
    const matched =
      row.type === 'FILE' ? [row] : files.filter((file) => file.path.startsWith(row.path));
    if (matched.length === 0) continue;
    datums.push({
      files: matched.map(toFile),
      key: keyTemplate ? expandKey(keyTemplate, match) : '',
    });
  }
  return datums;
}
