import { ApiError, Code } from '../../errors.ts';

/** Error codes that mean the disk (or the user's quota on it) is full. */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** Whether an error (Node's fs, SQLite) says the disk is full. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && FULL_CODES.has(code);
}

/**
 * The answer to a write that ran out of disk: RESOURCE_EXHAUSTED (8) naming it. The write was
 * all or nothing (blobs land before the transaction that names them; a failed transaction rolls
 * back), so nothing of it was stored; reads go on, and writes succeed again once space is freed.
 */
export function diskFullError(error: unknown): ApiError {
  const what = (error as { code?: string }).code === 'SQLITE_FULL' ? 'the database' : 'a file';
  return new ApiError(
    Code.RESOURCE_EXHAUSTED,
    `the server's disk is full (no space left on device writing ${what}): nothing of this write was stored; free space and try again`,
  );
}
