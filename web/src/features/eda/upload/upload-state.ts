import {
  DEFAULT_UPLOAD_PATH,
  createUploadItem,
  removeUploadItem,
  uploadButtonState,
  validateUploadPath,
  type UploadFile,
  type UploadItem,
} from '@ivory/api';

/** The upload modal's state: the form fields and the picked files (engine items). */
export interface UploadModalState {
  /** File Path, trimmed on change (default '/rtl'): the value validated and sent. */
  path: string;
  /** The File Path text as typed (so a space inside a folder name can be typed). */
  pathInput: string;
  /** Commit Message, trimmed (optional): the value sent. */
  description: string;
  descriptionInput: string;
  items: UploadItem[];
  /** Shown under File Path: 'A path is required' when it is empty. */
  pathError: string | null;
}

export type UploadModalAction =
  | { type: 'setPath'; value: string }
  | { type: 'setDescription'; value: string }
  | { type: 'addFiles'; files: readonly UploadFile[] }
  | { type: 'remove'; relativePath: string }
  | { type: 'clear' }
  /** Engine snapshots, merged by relative path (a file deleted meanwhile stays deleted). */
  | { type: 'progress'; items: readonly UploadItem[] }
  /** Remembered sessions (relativePath → uploadId) for files picked again after a closed tab. */
  | { type: 'resumeSessions'; uploadIds: ReadonlyMap<string, string> };

export const initialUploadState: UploadModalState = {
  path: DEFAULT_UPLOAD_PATH,
  pathInput: DEFAULT_UPLOAD_PATH,
  description: '',
  descriptionInput: '',
  items: [],
  pathError: null,
};

export function uploadReducer(
  state: UploadModalState,
  action: UploadModalAction,
): UploadModalState {
  switch (action.type) {
    case 'setPath': {
      const path = action.value.trim();
      return { ...state, path, pathInput: action.value, pathError: validateUploadPath(path) };
    }
    case 'setDescription':
      return { ...state, description: action.value.trim(), descriptionInput: action.value };
    case 'addFiles': {
      // A file picked again (same relative path) replaces the earlier pick.
      const added = action.files.map((file) => createUploadItem(file));
      const paths = new Set(added.map((item) => item.relativePath));
      const kept = state.items.filter((item) => !paths.has(item.relativePath));
      const unique = [...new Map(added.map((item) => [item.relativePath, item])).values()];
      return { ...state, items: [...kept, ...unique] };
    }
    case 'remove':
      return { ...state, items: removeUploadItem(state.items, action.relativePath) };
    case 'clear':
      return { ...state, items: [] };
    case 'progress': {
      const updates = new Map(action.items.map((item) => [item.relativePath, item]));
      return {
        ...state,
        items: state.items.map((item) => {
          const update = updates.get(item.relativePath);
          return update && update.file === item.file ? update : item;
        }),
      };
    }
    case 'resumeSessions':
      return {
        ...state,
        items: state.items.map((item) => {
          const uploadId = action.uploadIds.get(item.relativePath);
          return uploadId && item.uploadId === '' ? { ...item, uploadId } : item;
        }),
      };
  }
}

/** The footer's Upload/Done button (spec section 4). */
export function uploadButton(state: UploadModalState) {
  return uploadButtonState(state.items);
}

/** antd Progress status of an item: normal, exception, active, success; 100 → success. */
export function progressStatus(item: UploadItem): 'normal' | 'exception' | 'active' | 'success' {
  if (item.progress >= 100 || item.status === 'success') return 'success';
  if (item.status === 'error') return 'exception';
  if (item.status === 'loading') return 'active';
  return 'normal';
}
