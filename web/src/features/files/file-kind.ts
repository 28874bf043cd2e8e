import type { FileInfo } from '@ivory/api';
import { baseName } from './file-path.ts';

export type PreviewKind = 'text' | 'image' | 'none';

/** Text previews load the whole file, so only files up to this size get one. */
export const TEXT_PREVIEW_MAX_BYTES = 1024 * 1024;

const IMAGE_EXTENSIONS = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'bmp',
  'svg',
  'ico',
  'avif',
]);
const TEXT_EXTENSIONS = new Set([
  'txt',
  'md',
  'csv',
  'tsv',
  'json',
  'jsonl',
  'yaml',
  'yml',
  'xml',
  'html',
  'htm',
  'css',
  'js',
  'ts',
  'tsx',
  'jsx',
  'py',
  'go',
  'rs',
  'java',
  'c',
  'h',
  'cpp',
  'hpp',
  'sh',
  'toml',
  'ini',
  'cfg',
  'log',
  'sql',
  'v',
  'sv',
  'vh',
  'svh',
  'vhd',
  'vhdl',
  'tcl',
  'sdc',
  'lef',
  'def',
  'lib',
  'f',
  'mk',
  'r',
  'rb',
  'php',
  'pl',
  'proto',
]);

export function fileExtension(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** How the simple preview pane shows a file. */
export function previewKind(info: FileInfo): PreviewKind {
  if (info.fileType !== 'FILE') return 'none';
  const extension = fileExtension(info.file.path);
  if (IMAGE_EXTENSIONS.has(extension)) return 'image';
  const name = baseName(info.file.path);
  const textual =
    TEXT_EXTENSIONS.has(extension) ||
    ['Makefile', 'Dockerfile', 'README', 'LICENSE'].includes(name);
  return textual && Number(info.sizeBytes) <= TEXT_PREVIEW_MAX_BYTES ? 'text' : 'none';
}
