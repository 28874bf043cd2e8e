import { pfs_v2 } from '@ivory/api/proto';
import type { MethodRegistry } from '../platform.ts';
import { typedStream } from '../typed-method.ts';
import type { BlobReclaimer } from '../storage/blob-reclaim.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { Db } from '../storage/database.ts';
import type { RepoType } from './rows.ts';

interface FileCheckRow {
  project: string;
  repo: string;
  type: RepoType;
  commit_id: string;
  path: string;
  hash: string;
}

interface UploadRow {
  id: string;
  project: string;
  repo: string;
}

export interface FsckLine {
  fix: string;
  error: string;
}

const repoLabel = (project: string, repo: string, type: RepoType) =>
  `${project}/${repo}${type === 'user' ? '' : `.${type}`}`;

/**
 * Checks the store: every file of every finished commit must reference a blob that exists and
 * whose bytes still hash to its name (sha256). Each problem is one line
 * `{error: "commit <project>/<repo>@<id>: file <path>: blob <hash> missing|corrupt"}` (a blob
 * shared by several files or commits is checked once but reported for each); a healthy store
 * yields nothing.
 *
 * File contents are immutable, so `fix` never removes or rewrites files (a missing or corrupt
 * blob stays an error either way). What it repairs is dangling metadata: upload sessions whose
 * target repo no longer exists are reported as errors without `fix` and removed with it (one
 * `{fix: "..."}` line each; their staging folders go at the next abandoned-upload sweep).
 * Blobs that nothing names (no commit, upload, file set or datum) are reported as
 * `{error: "blob <hash>: unreferenced …"}` unless a sweep is due, which deletes them anyway
 * (BlobReclaimer.due: right after a drop, a delete…); with `fix` they are deleted instead (one
 * `{fix}` line each), except any a write in flight may be about to use (see BlobReclaimer).
 * zombieTarget / zombieAll (Pachyderm's check for output files not written by any datum) have
 * nothing to check: embedded pipeline output commits are written whole in one transaction.
 */
export async function* fsck(
  db: Db,
  blobs: BlobStore,
  options: { fix: boolean; signal?: AbortSignal; reclaimer?: BlobReclaimer },
): AsyncGenerator<FsckLine> {
  const verdicts = new Map<string, 'ok' | 'missing' | 'corrupt'>();
  const rows = db
    .prepare(
      `SELECT r.project, r.name AS repo, r.type, c.id AS commit_id, f.path, f.hash
       FROM files f JOIN commits c ON c.rowid = f.commit_rowid JOIN repos r ON r.id = c.repo_id
       WHERE f.type = 'FILE' AND f.size_bytes > 0 AND c.finished_at IS NOT NULL
       ORDER BY r.project, r.name, r.type, c.rowid, f.path`,
    )
    .all() as FileCheckRow[];
  for (const row of rows) {
    if (options.signal?.aborted) return;
    let verdict = verdicts.get(row.hash);
    if (!verdict) {
      if (!/^[0-9a-f]{64}$/.test(row.hash)) verdict = 'corrupt';
      else if (!(await blobs.has(row.hash))) verdict = 'missing';
      else verdict = (await blobs.verify(row.hash)) ? 'ok' : 'corrupt';
      verdicts.set(row.hash, verdict);
    }
    if (verdict === 'ok') continue;
    yield {
      fix: '',
      error: `commit ${repoLabel(row.project, row.repo, row.type)}@${row.commit_id}: file ${row.path}: blob ${row.hash} ${verdict}`,
    };
  }

  const uploads = db
    .prepare(
      `SELECT u.id, u.project, u.repo FROM uploads u WHERE NOT EXISTS (
         SELECT 1 FROM repos r WHERE r.project = u.project AND r.name = u.repo AND r.type = 'user')
       ORDER BY u.id`,
    )
    .all() as UploadRow[];
  for (const upload of uploads) {
    const what = `upload ${upload.id}: repo ${upload.project}/${upload.repo} no longer exists`;
    if (!options.fix) {
      yield { fix: '', error: what };
      continue;
    }
    db.prepare('DELETE FROM uploads WHERE id = ?').run(upload.id);
    yield { fix: `removed ${what}`, error: '' };
  }

  // Unreferenced blobs: reported, and with `fix` deleted (unless a write in flight may be
  // about to use one: those stay for a later sweep and are not reported at all). Without `fix`,
  // none is reported while a sweep is due (e.g. just after a drop or delete): that sweep deletes
  // them, so they are the reclaimer's ordinary work in progress, not damage.
  if (!options.reclaimer || options.signal?.aborted) return;
  const swept = await options.reclaimer.sweep({ dryRun: !options.fix });
  if (!options.fix && options.reclaimer.due) return;
  for (const blob of swept.unreferenced) {
    // A blob used in the last few seconds is a write in flight, not a problem (yet).
    if (blob.recent) continue;
    if (!options.fix) {
      yield {
        fix: '',
        error: `blob ${blob.hash}: unreferenced (no commit, upload, file set or datum names it)`,
      };
    } else if (blob.removed) {
      yield { fix: `removed unreferenced blob ${blob.hash} (${blob.bytes} bytes)`, error: '' };
    }
  }
}

export function registerFsckApi(
  methods: MethodRegistry,
  deps: { db: Db; blobs: BlobStore; reclaimer?: BlobReclaimer },
): void {
  methods.set(
    'pfs_v2.API/Fsck',
    typedStream(pfs_v2.FsckRequestSchema, async function* (req, signal) {
      yield* fsck(deps.db, deps.blobs, {
        fix: req.fix,
        signal,
        reclaimer: deps.reclaimer,
      });
    }),
  );
}
