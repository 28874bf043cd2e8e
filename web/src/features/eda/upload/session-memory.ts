import type { UploadItem } from '@ivory/api';

/**
 * Upload sessions remembered in localStorage, so closing the tab mid-upload loses nothing the
 * server already holds: when the same files (same bolt, target path, relative path, size and
 * modification time) are picked again, the engine continues their sessions and sends only the
 * chunks the server lacks (GET /upload/status). Entries go once the uploads are finished.
 */
const STORAGE_KEY = 'ivory.eda.uploadSessions';

interface Remembered {
  [key: string]: { uploadId: string; savedAt: number; group?: string };
}

/** Sessions older than the server's default idle timeout (24 h) are gone anyway. */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

function fileKey(repo: string, path: string, item: UploadItem): string {
  const modified = (item.file as { lastModified?: number }).lastModified ?? 0;
  return JSON.stringify([repo, path, item.relativePath, item.file.size, modified]);
}

function read(): Remembered {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Remembered) : {};
  } catch {
    return {};
  }
}

function write(entries: Remembered) {
  try {
    const now = Date.now();
    const fresh = Object.fromEntries(
      Object.entries(entries).filter(([, entry]) => now - entry.savedAt < MAX_AGE_MS),
    );
    localStorage.setItem(STORAGE_KEY, JSON.stringify(fresh));
  } catch {
    // storage full or unavailable: resuming after a closed tab is a convenience only
  }
}

export function rememberSessions(
  repo: string,
  path: string,
  items: readonly UploadItem[],
  group = '',
) {
  const entries = read();
  for (const item of items) {
    if (item.uploadId)
      entries[fileKey(repo, path, item)] = {
        uploadId: item.uploadId,
        savedAt: Date.now(),
        ...(group ? { group } : {}),
      };
  }
  write(entries);
}

/** A new upload group: 24 random hex digits (the server lands a group in one commit). */
export function newUploadGroup(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The group of remembered sessions of these files, so the new ones join it. */
export function recallGroup(
  repo: string,
  path: string,
  items: readonly UploadItem[],
): string | null {
  const entries = read();
  for (const item of items) {
    const group = entries[fileKey(repo, path, item)]?.group;
    if (group) return group;
  }
  return null;
}

export function recallSessions(
  repo: string,
  path: string,
  items: readonly UploadItem[],
): Map<string, string> {
  const entries = read();
  const found = new Map<string, string>();
  for (const item of items) {
    const entry = entries[fileKey(repo, path, item)];
    if (entry) found.set(item.relativePath, entry.uploadId);
  }
  return found;
}

export function forgetSessions(uploadIds: readonly string[]) {
  const gone = new Set(uploadIds);
  write(
    Object.fromEntries(Object.entries(read()).filter(([, entry]) => !gone.has(entry.uploadId))),
  );
}
