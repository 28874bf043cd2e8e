import type { PickedFile } from './upload-state.ts';

/** Files of an <input type=file> (with webkitdirectory, each keeps its folder path). */
export function picksFromInput(files: FileList | null): PickedFile[] {
  return Array.from(files ?? [], (file) => ({
    file,
    relativePath: file.webkitRelativePath || file.name,
  }));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => {
    const all: FileSystemEntry[] = [];
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(all);
        else {
          all.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

async function walk(entry: FileSystemEntry, prefix: string, out: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    out.push({
      file: await fileOf(entry as FileSystemFileEntry),
      relativePath: prefix + entry.name,
    });
  } else if (entry.isDirectory) {
    const children = await readAll((entry as FileSystemDirectoryEntry).createReader());
    for (const child of children) await walk(child, `${prefix}${entry.name}/`, out);
  }
}

/** Files and whole folders dropped on the page, each file with its path inside the drop. */
export async function picksFromDrop(data: DataTransfer): Promise<PickedFile[]> {
  const entries = Array.from(data.items ?? [])
    .map((item) => (item.kind === 'file' ? item.webkitGetAsEntry?.() : null))
    .filter((entry): entry is FileSystemEntry => Boolean(entry));
  if (entries.length === 0) return picksFromInput(data.files);
  const out: PickedFile[] = [];
  for (const entry of entries) await walk(entry, '', out);
  return out;
}
