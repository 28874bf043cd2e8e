import { diffLines } from 'diff';
import type { DiffFileResponse, FileInfo } from '@ivory/api';

export type FileChangeKind = 'added' | 'removed' | 'changed';

export interface ChangedFile {
  path: string;
  change: FileChangeKind;
  /** Size in the older commit (null when added). */
  oldSize: number | null;
  /** Size in the newer commit (null when removed). */
  newSize: number | null;
}

/**
 * The files a DiffFile answer names, one entry per file path (folders left out), sorted by path:
 * added (only new), removed (only old) or changed (both, different content).
 */
export function changedFiles(responses: readonly DiffFileResponse[]): ChangedFile[] {
  const byPath = new Map<string, { old: FileInfo | null; new: FileInfo | null }>();
  const add = (info: FileInfo | null, side: 'old' | 'new') => {
    if (!info || info.fileType !== 'FILE') return;
    const entry = byPath.get(info.file.path) ?? { old: null, new: null };
    entry[side] = info;
    byPath.set(info.file.path, entry);
  };
  for (const response of responses) {
    add(response.oldFile, 'old');
    add(response.newFile, 'new');
  }
  const files: ChangedFile[] = [];
  for (const [path, entry] of byPath) {
    if (entry.old && entry.new && entry.old.hash === entry.new.hash && entry.old.hash !== '')
      continue;
    files.push({
      path,
      change: entry.old && entry.new ? 'changed' : entry.new ? 'added' : 'removed',
      oldSize: entry.old ? Number(entry.old.sizeBytes) : null,
      newSize: entry.new ? Number(entry.new.sizeBytes) : null,
    });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

export interface DiffCell {
  /** 1-based line number on its side. */
  line: number;
  text: string;
  kind: 'same' | 'removed' | 'added';
}

/** One row of a side-by-side diff: the old line on the left, the new on the right. */
export interface DiffRow {
  left: DiffCell | null;
  right: DiffCell | null;
}

function splitLines(value: string): string[] {
  const lines = value.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Side-by-side rows of a line diff (the `diff` package): unchanged lines face each other, and
 * within each changed block the removed lines face the added ones, pairwise.
 */
export function sideBySide(oldText: string, newText: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let leftLine = 0;
  let rightLine = 0;
  let removed: string[] = [];
  let added: string[] = [];
  const flush = () => {
    const count = Math.max(removed.length, added.length);
    for (let i = 0; i < count; i++) {
      const left = removed[i];
      const right = added[i];
      rows.push({
        left: left === undefined ? null : { line: ++leftLine, text: left, kind: 'removed' },
        right: right === undefined ? null : { line: ++rightLine, text: right, kind: 'added' },
      });
    }
    removed = [];
    added = [];
  };
  for (const part of diffLines(oldText, newText)) {
    const lines = splitLines(part.value);
    if (part.removed) removed.push(...lines);
    else if (part.added) added.push(...lines);
    else {
      flush();
      for (const text of lines) {
        rows.push({
          left: { line: ++leftLine, text, kind: 'same' },
          right: { line: ++rightLine, text, kind: 'same' },
        });
      }
    }
  }
  flush();
  return rows;
}
