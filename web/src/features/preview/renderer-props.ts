import type { FileInfo } from '@ivory/api';
import { baseName } from '../files/file-path.ts';
import { previewKindOf } from './registry.ts';
import type { RendererProps } from './renderers/types.ts';

/** What a file's renderer gets, from the file and its /files URLs. */
export function rendererProps(info: FileInfo, url: string, downloadUrl: string): RendererProps {
  return {
    url,
    downloadUrl,
    name: baseName(info.file.path),
    sizeBytes: Number(info.sizeBytes),
    language: previewKindOf(info.file.path).language,
  };
}
