import { createHash } from 'node:crypto';
import type { PfsStore } from '../pfs/pfs-store.ts';
import type { CommitRow, FileRow } from '../pfs/rows.ts';
import { cleanGlob, compileDatumGlob } from './datum-glob.ts';
import { inputCommitKey, type CronInputSpec, type InputSpec, type PfsInputSpec } from './spec.ts';

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
  /**
   * What the input's glob matched for this file: the file itself, a folder above it (`/dir/`)
   * or the root (`/`). A datum lists its matches as its data, as pachd does. (Datums planned
   * before this was kept have none: each file is its own match.)
   */
  match?: string;
  /** The input's repo (project/name), where the input is named otherwise. */
  repo?: string;
  /** An s3 input's match: nothing is copied (its data is read over S3 in pachd). */
  s3?: boolean;
  /**
   * Which of the datum's parts (one per input match) the file is of, when it has several: two
   * inputs may match the same path (a join of a repo with itself).
   */
  part?: number;
  /** The match's join and group keys, when its input has them (PACH_DATUM_<input>_JOIN_ON…). */
  joinOn?: string;
  groupBy?: string;
}

export interface PlannedDatum {
  id: string;
  files: DatumFile[];
}

/**
 * One input's part of a datum: the files one glob match brought, with the match's join and
 * group keys (its glob's capture groups put into `joinOn` / `groupBy`).
 */
interface Part {
  files: DatumFile[];
  join: string;
  group: string;
  outer: boolean;
}

type Datum = Part[];

/** The commit each pfs/cron input reads (by inputCommitKey: its name, mostly). */
export type InputCommits = Map<string, CommitRow>;

/**
 * A datum's identity: a hash of its input files' input names (and repos, where an input is
 * named otherwise: a union may give inputs over different repos one name), paths and content
 * hashes.
 */
export function datumId(files: DatumFile[]): string {
  const hasher = createHash('sha256');
  for (const file of files) {
    const input = file.repo ? `${file.input}\0${file.repo}` : file.input;
    hasher.update(`${input}\0${file.path}\0${file.hash}\n`);
  }
  return hasher.digest('hex');
}

/**
 * Splits the inputs into datums with Pachyderm's semantics: a pfs input makes one datum per
 * path its glob matches (a folder brings every file under it); a cross makes every combination
 * of its children's datums; a union, each child's datums; a join, one datum per join key with
 * each child's parts of that key crossed (where a child has none, only `outerJoin` parts stay);
 * a group, one datum per group key with every part of that key. A join or group splits its
 * children's datums into their parts, each keyed by its own input's `joinOn` / `groupBy`.
 */
export function planDatums(
  store: PfsStore,
  input: InputSpec,
  commits: InputCommits,
): PlannedDatum[] {
  const seen = new Set<string>();
  const out: PlannedDatum[] = [];
  const commitOf = (leaf: PfsInputSpec | CronInputSpec) => commits.get(inputCommitKey(input, leaf));
  for (const datum of expand(store, input, commitOf)) {
    const files =
      datum.length === 1
        ? (datum[0] as Part).files
        : datum.flatMap((part, index) => part.files.map((file) => ({ ...file, part: index })));
    const id = datumId(files);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ id, files });
  }
  return out;
}

type CommitOf = (leaf: PfsInputSpec | CronInputSpec) => CommitRow | undefined;

function expand(store: PfsStore, input: InputSpec, commits: CommitOf): Datum[] {
  switch (input.kind) {
    case 'pfs':
      return globParts(store, input.name, input.glob, commits(input), {
        repo: input.repo === input.name ? '' : `${input.project}/${input.repo}`,
        joinOn: input.joinOn,
        groupBy: input.groupBy,
        outer: input.outerJoin,
        emptyFiles: input.emptyFiles,
        s3: input.s3,
      }).map((part) => [part]);
    case 'cron':
      return globParts(store, input.name, '/', commits(input), {
        repo: '',
        joinOn: '',
        groupBy: '',
        outer: false,
        emptyFiles: false,
        s3: false,
      }).map((part) => [part]);
    case 'union':
      return input.children.flatMap((child) => expand(store, child, commits));
    case 'cross':
      return input.children.reduce<Datum[]>(
        (product, child) => {
          const datums = expand(store, child, commits);
          return product.flatMap((left) => datums.map((right) => [...left, ...right]));
        },
        [[]],
      );
    case 'join': {
      const perChild = input.children.map((child) =>
        byKey(expand(store, child, commits), (part) => part.join),
      );
      const keys = [...new Set(perChild.flatMap((child) => [...child.keys()]))].sort();
      const datums: Datum[] = [];
      for (const key of keys) {
        const present = perChild.map((child) => child.get(key)).filter((parts) => !!parts);
        const crossed = present.reduce<Datum[]>(
          (product, parts) => product.flatMap((left) => parts.map((part) => [...left, part])),
          [[]],
        );
        for (const datum of crossed) {
          const kept =
            present.length === perChild.length ? datum : datum.filter((part) => part.outer);
          if (kept.length > 0) datums.push(kept);
        }
      }
      return datums;
    }
    case 'group': {
      const merged = new Map<string, Part[]>();
      for (const child of input.children)
        for (const [key, parts] of byKey(expand(store, child, commits), (part) => part.group))
          merged.set(key, [...(merged.get(key) ?? []), ...parts]);
      return [...merged.keys()].sort().map((key) => merged.get(key) ?? []);
    }
  }
}

/** The parts of datums by a key of each part. */
function byKey(datums: Datum[], key: (part: Part) => string): Map<string, Part[]> {
  const keyed = new Map<string, Part[]>();
  for (const datum of datums)
    for (const part of datum) {
      const k = key(part);
      const list = keyed.get(k);
      if (list) list.push(part);
      else keyed.set(k, [part]);
    }
  return keyed;
}

/** "$1-$2" with the glob's capture groups filled in. */
function expandKey(template: string, match: (string | null)[]): string {
  return template.replace(/\$(\d+)/g, (_, n: string) => match[Number(n)] ?? '');
}

/** The parts a pfs input's glob makes of its commit: one per matched path, in path order. */
function globParts(
  store: PfsStore,
  inputName: string,
  glob: string,
  commit: CommitRow | undefined,
  options: {
    repo: string;
    joinOn: string;
    groupBy: string;
    outer: boolean;
    emptyFiles: boolean;
    s3: boolean;
  },
): Part[] {
  if (!commit) return [];
  const rows = store.allFiles(commit);
  const files = rows.filter((row) => row.type === 'FILE');
  const toFile = (row: FileRow, match: string): DatumFile => ({
    input: inputName,
    commitRowid: commit.rowid,
    path: row.path,
    hash: row.hash,
    sizeBytes: row.size_bytes,
    committedAt: row.committed_at,
    emptyFile: options.emptyFiles,
    match,
  });
  const part = (match: string, matched: FileRow[], captures: (string | null)[]): Part => {
    const join = expandKey(options.joinOn, captures);
    const group = expandKey(options.groupBy, captures);
    const keys = {
      ...(options.repo ? { repo: options.repo } : {}),
      ...(join ? { joinOn: join } : {}),
      ...(group ? { groupBy: group } : {}),
    };
    return {
      // An s3 input's data is read over S3: its datum names the match, no file is copied.
      files: options.s3
        ? [
            {
              input: inputName,
              commitRowid: commit.rowid,
              path: match,
              hash: '',
              sizeBytes: matched.reduce((n, row) => n + row.size_bytes, 0),
              committedAt: commit.finished_at ?? commit.started_at,
              emptyFile: false,
              match,
              s3: true,
              ...keys,
            },
          ]
        : matched.map((row) => ({ ...toFile(row, match), ...keys })),
      join,
      group,
      outer: options.outer,
    };
  };
  const cleaned = cleanGlob(glob);
  if (cleaned === '/') return files.length === 0 ? [] : [part('/', files, ['/'])];
  const pattern = compileDatumGlob(cleaned);
  const filesOnly = cleaned.includes('**');
  const parts: Part[] = [];
  for (const row of filesOnly ? files : rows) {
    const bare = row.type === 'DIR' ? row.path.slice(0, -1) : row.path;
    const captures = pattern.exec(bare);
    if (!captures) continue;
    const matched =
      row.type === 'FILE' ? [row] : files.filter((file) => file.path.startsWith(row.path));
    if (matched.length === 0) continue;
    parts.push(part(row.path, matched, captures));
  }
  return parts;
}

/** A datum's data as pachd lists it: each input's glob match once, in the datum's order. */
export function datumMatches(files: DatumFile[]): {
  input: string;
  commitRowid: number;
  path: string;
  type: 'FILE' | 'DIR';
  hash: string;
  sizeBytes: number;
  committedAt: number;
}[] {
  const matches = new Map<string, ReturnType<typeof datumMatches>[number] & { hashes: string[] }>();
  for (const file of files) {
    const path = file.match ?? file.path;
    const key = `${file.part ?? 0}\0${file.input}\0${file.commitRowid}\0${path}`;
    let match = matches.get(key);
    if (!match) {
      match = {
        input: file.input,
        commitRowid: file.commitRowid,
        path,
        type: path.endsWith('/') ? 'DIR' : 'FILE',
        hash: '',
        sizeBytes: 0,
        committedAt: 0,
        hashes: [],
      };
      matches.set(key, match);
    }
    match.sizeBytes += file.sizeBytes;
    match.committedAt = Math.max(match.committedAt, file.committedAt);
    match.hashes.push(file.hash);
  }
  return [...matches.values()].map(({ hashes, ...match }) => ({
    ...match,
    // A folder's hash covers its files' hashes.
    hash:
      match.type === 'FILE' && hashes.length === 1
        ? (hashes[0] as string)
        : createHash('sha256').update(hashes.join('\n')).digest('hex'),
  }));
}
