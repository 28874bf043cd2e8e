/** Upload chunk size: 20 MiB. */
export const CHUNK_SIZE = 20 * 1024 * 1024;
export const DEFAULT_UPLOAD_PATH = '/rtl';
export const DEFAULT_UPLOAD_BRANCH = 'master';
export const UPLOAD_PROJECT_ID = 'eda';
export const UPLOAD_FAILED_MESSAGE = 'upload file failed.';
export const UPLOAD_SUCCESS_MESSAGE = 'upload file success.';

export type UploadStatus = 'pending' | 'normal' | 'loading' | 'success' | 'error';

/** What the engine needs of a file: browsers' File and Node 20's File both fit. */
export interface UploadFile extends Blob {
  readonly name: string;
  readonly webkitRelativePath?: string;
}

export interface UploadItem {
  file: UploadFile;
  /** Relative path (dirPath + name), the item's identity in a list. */
  relativePath: string;
  /** Relative directory of the file ('' for a top-level file). */
  dirPath: string;
  /** Empty until the start call for its directory answers. */
  uploadId: string;
  /** 0-100 */
  progress: number;
  status: UploadStatus;
  controller: AbortController | null;
}

/**
 * An item for a picked file. `relativePath` defaults to the browser's webkitRelativePath (set for
 * folder picks), else the bare file name.
 */
export function createUploadItem(file: UploadFile, relativePath?: string): UploadItem {
  const path = trimSlashes(relativePath ?? (file.webkitRelativePath || file.name));
  return {
    file,
    relativePath: path,
    dirPath: dirPathOf(path),
    uploadId: '',
    progress: 0,
    status: 'normal',
    controller: null,
  };
}

/** The directory part of a relative path: 'a/b/c.v' → 'a/b', 'c.v' → ''. */
export function dirPathOf(relativePath: string): string {
  const path = trimSlashes(relativePath);
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/**
 * The target folder of a directory: the file path trimmed, with a trailing slash, joined with the
 * dirPath, then normalised (no repeated slashes, leading slash, no trailing slash except root).
 */
export function joinUploadPath(basePath: string, dirPath: string): string {
  let base = basePath.trim();
  if (!base.endsWith('/')) base += '/';
  const joined = `/${base}${dirPath}`.replace(/\/{2,}/g, '/');
  return joined.length > 1 ? joined.replace(/\/+$/, '') : joined;
}

/** Validation of the File Path field: null when valid. */
export function validateUploadPath(path: string): string | null {
  return path.trim() === '' ? 'A path is required' : null;
}

/** Items grouped by dirPath, in first-seen order: one start call per group. */
export function groupByDirPath(items: readonly UploadItem[]): Map<string, UploadItem[]> {
  const groups = new Map<string, UploadItem[]>();
  for (const item of items) {
    const group = groups.get(item.dirPath);
    if (group) group.push(item);
    else groups.set(item.dirPath, [item]);
  }
  return groups;
}

export function distinctUploadIds(items: readonly UploadItem[]): string[] {
  return [...new Set(items.map((item) => item.uploadId).filter((id) => id !== ''))];
}

/** Number of chunks for a file; an empty file still sends one (empty) chunk. */
export function chunkCount(size: number, chunkSize = CHUNK_SIZE): number {
  return Math.max(1, Math.ceil(size / chunkSize));
}

/** Byte range [start, end) of chunk `index`. */
export function chunkRange(
  index: number,
  size: number,
  chunkSize = CHUNK_SIZE,
): { start: number; end: number } {
  const start = index * chunkSize;
  return { start, end: Math.min(start + chunkSize, size) };
}

/** Progress after `sentChunks` of `total` chunks, 0-100 (integer). */
export function chunkProgress(sentChunks: number, total: number): number {
  return total === 0 ? 100 : Math.floor((sentChunks / total) * 100);
}

/** Chunk indexes of 0..total-1 not in `received`, ascending. */
export function missingChunks(total: number, received: Iterable<number>): number[] {
  const have = new Set(received);
  return Array.from({ length: total }, (_, index) => index).filter((index) => !have.has(index));
}

/** The Upload button: disabled with no files or while any file loads; 'Done' when all succeeded. */
export function uploadButtonState(items: readonly UploadItem[]): {
  disabled: boolean;
  label: 'Upload' | 'Done';
} {
  const allDone = items.length > 0 && items.every((item) => item.status === 'success');
  return {
    disabled: items.length === 0 || items.some((item) => item.status === 'loading'),
    label: allDone ? 'Done' : 'Upload',
  };
}

export function removeUploadItem(items: readonly UploadItem[], relativePath: string): UploadItem[] {
  return items.filter((item) => item.relativePath !== relativePath);
}

function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}
