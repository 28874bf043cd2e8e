import {
  createUploadItem,
  removeUploadItem,
  validateUploadPath,
  type UploadItem,
} from '@ivory/api';

export interface PickedFile {
  file: File;
  /** Path under the destination ('a/b.txt'); a folder pick keeps its folder names. */
  relativePath: string;
}

export type UploadPhase = 'editing' | 'uploading' | 'finishing' | 'done' | 'failed' | 'cancelled';

export interface UploadScreenState {
  items: UploadItem[];
  path: string;
  branch: string;
  message: string;
  phase: UploadPhase;
  error: string | null;
  /** The new commit once the upload finished. */
  commitId: string | null;
}

export type UploadAction =
  | { type: 'add'; files: PickedFile[] }
  | { type: 'remove'; relativePath: string }
  | { type: 'clear' }
  | { type: 'setPath'; path: string }
  | { type: 'setBranch'; branch: string }
  | { type: 'setMessage'; message: string }
  | { type: 'start' }
  | { type: 'progress'; items: UploadItem[] }
  | { type: 'finishing' }
  | { type: 'done'; commitId: string | null }
  | { type: 'failed'; error: string }
  | { type: 'cancelled' };

export const DESTINATION_DEFAULT = '/';

export function initialUploadState(branch = 'master'): UploadScreenState {
  return {
    items: [],
    path: DESTINATION_DEFAULT,
    branch,
    message: '',
    phase: 'editing',
    error: null,
    commitId: null,
  };
}

/**
 * An upload item whose file is named by its whole relative path and whose dirPath is empty: the
 * engine then opens one upload session for everything, and the server lands every file (folders
 * kept) in ONE new commit under the destination path.
 */
export function itemForPick(pick: PickedFile): UploadItem {
  const relativePath = pick.relativePath.replace(/^\/+/, '');
  const file = new File([pick.file], relativePath, {
    type: pick.file.type,
    lastModified: pick.file.lastModified,
  });
  return { ...createUploadItem(file, relativePath), dirPath: '' };
}

const editable = (phase: UploadPhase) => phase !== 'uploading' && phase !== 'finishing';

export function uploadReducer(state: UploadScreenState, action: UploadAction): UploadScreenState {
  switch (action.type) {
    case 'add': {
      if (!editable(state.phase)) return state;
      const base = state.phase === 'done' ? [] : state.items;
      const known = new Set(base.map((item) => item.relativePath));
      const added = action.files.map(itemForPick).filter((item) => !known.has(item.relativePath));
      return {
        ...state,
        items: [...base, ...added],
        phase: 'editing',
        error: null,
        commitId: null,
      };
    }
    case 'remove':
      return editable(state.phase)
        ? { ...state, items: removeUploadItem(state.items, action.relativePath) }
        : state;
    case 'clear':
      return editable(state.phase)
        ? { ...state, items: [], phase: 'editing', error: null, commitId: null }
        : state;
    case 'setPath':
      return { ...state, path: action.path.trim() };
    case 'setBranch':
      return { ...state, branch: action.branch.trim() };
    case 'setMessage':
      return { ...state, message: action.message };
    case 'start':
      return {
        ...state,
        phase: 'uploading',
        error: null,
        commitId: null,
        items: state.items.map((item) => ({
          ...item,
          uploadId: '',
          progress: 0,
          status: 'pending',
          controller: null,
        })),
      };
    case 'progress':
      return state.phase === 'uploading' ? { ...state, items: action.items } : state;
    case 'finishing':
      return { ...state, phase: 'finishing' };
    case 'done':
      return { ...state, phase: 'done', commitId: action.commitId };
    case 'failed':
      return state.phase === 'cancelled'
        ? state
        : { ...state, phase: 'failed', error: action.error };
    case 'cancelled':
      return { ...state, phase: 'cancelled', error: 'Upload cancelled' };
  }
}

/** Why the Upload button is disabled, or null when it can run. */
export function uploadBlocker(state: UploadScreenState): string | null {
  if (!editable(state.phase)) return 'An upload is running';
  if (state.items.length === 0) return 'Add files or a folder first';
  const pathError = validateUploadPath(state.path);
  if (pathError) return pathError;
  if (state.branch === '') return 'A branch is required';
  return null;
}

/** Percent of all bytes sent, from each item's progress. */
export function totalProgress(items: readonly UploadItem[]): number {
  const total = items.reduce((sum, item) => sum + Math.max(1, item.file.size), 0);
  if (total === 0) return 0;
  const sent = items.reduce(
    (sum, item) => sum + (Math.max(1, item.file.size) * item.progress) / 100,
    0,
  );
  return Math.floor((sent / total) * 100);
}
