import { invalidArgument } from '../../errors.ts';

/**
 * File paths inside a commit. Files are stored as "/a/b.txt", folders as "/a/b/" (trailing
 * slash, as Pachyderm reports them); the root folder is "/".
 */

/**
 * The deepest and longest path a file may have (as Linux's PATH_MAX bounds a path's length). Work
 * on a path grows with its depth (every folder above a file is a row, and an archive entry
 * names them all): a 10,000-folder path once held the server for seconds.
 */
export const MAX_PATH_DEPTH = 256;
export const MAX_PATH_CHARS = 4096;

/**
 * Normalises a user-given path to "/a/b" form; rejects escapes, NUL and control characters, and
 * paths deeper than MAX_PATH_DEPTH folders or longer than MAX_PATH_CHARS (code 3).
 */
export function normalisePath(input: string): string {
  if (input.length > MAX_PATH_CHARS * 4)
    throw invalidArgument(`a path is longer than ${MAX_PATH_CHARS} characters (the limit)`);
  if ([...input].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) {
    throw invalidArgument(`path ${JSON.stringify(input)} contains control characters`);
  }
  const segments: string[] = [];
  for (const segment of input.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0)
        throw invalidArgument(`path ${JSON.stringify(input)} escapes the root`);
      segments.pop();
      continue;
    }
    segments.push(segment);
    if (segments.length > MAX_PATH_DEPTH)
      throw invalidArgument(
        `path ${JSON.stringify(input.slice(0, 64))}… is deeper than ${MAX_PATH_DEPTH} folders (the limit)`,
      );
  }
  const normalised = '/' + segments.join('/');
  if (normalised.length > MAX_PATH_CHARS)
    throw invalidArgument(
      `path ${JSON.stringify(normalised.slice(0, 64))}… is longer than ${MAX_PATH_CHARS} characters (the limit)`,
    );
  return normalised;
}

/** Same as normalisePath, but any ".." segment at all is an error (for file names in uploads). */
export function normaliseRelativeName(input: string): string {
  if (input.split(/[\\/]/).includes('..')) {
    throw invalidArgument(`path ${JSON.stringify(input)} must not contain ".."`);
  }
  return normalisePath(input);
}

/** "/a/b" → "/a/b/" (the stored form of a folder); "/" stays "/". */
export function asDirPath(path: string): string {
  return path.endsWith('/') ? path : path + '/';
}

/** The stored parent folder of a stored path: "/a/b.txt" → "/a/", "/a/b/" → "/a/". */
export function parentDir(storedPath: string): string {
  const trimmed = storedPath.endsWith('/') ? storedPath.slice(0, -1) : storedPath;
  return trimmed.slice(0, trimmed.lastIndexOf('/') + 1);
}

export function baseName(storedPath: string): string {
  const trimmed = storedPath.endsWith('/') ? storedPath.slice(0, -1) : storedPath;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** Stored folder paths of every ancestor of a normalised file path, outermost first (no root). */
export function ancestorDirs(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  const dirs: string[] = [];
  for (let i = 1; i < parts.length; i++) dirs.push('/' + parts.slice(0, i).join('/') + '/');
  return dirs;
}

/** Exclusive upper bound of every stored path under a folder ("/a/" → "/a0"). */
export function subtreeUpperBound(dirPath: string): string {
  return dirPath.slice(0, -1) + '0';
}
