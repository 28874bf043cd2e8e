import type { FileInfo } from '@ivory/api';

/** The icon of a file kind (drawn by `files/FileIcon.tsx`). */
export type FileIconName =
  | 'text'
  | 'image'
  | 'video'
  | 'audio'
  | 'doc'
  | 'markdown'
  | 'web'
  | 'code'
  | 'table'
  | 'pdf'
  | 'archive'
  | 'sheet'
  | 'file';

/** How a file kind is shown (product spec section 3, "Preview file kinds"). */
export type PreviewRenderer =
  | 'markdown'
  | 'web'
  | 'iframe'
  | 'code'
  | 'csv'
  | 'image'
  | 'video'
  | 'audio'
  | 'pdf'
  | 'gz'
  | 'doc'
  | 'unknown';

export interface PreviewKind {
  renderer: PreviewRenderer;
  /** A CodeMirror language name for code and view-source ('' when none applies). */
  language: string;
  icon: FileIconName;
  /** False: the console offers the download only. */
  previewable: boolean;
  /** The preview can switch to the file's source text. */
  viewSource: boolean;
}

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * Largest file each renderer opens. Renderers that stream a prefix (csv, gz) or let the browser
 * stream with ranges (video, audio) have no limit; the others load the whole file.
 */
export const RENDERER_MAX_BYTES: Record<PreviewRenderer, number> = {
  markdown: 2 * MiB,
  web: 2 * MiB,
  iframe: 5 * MiB,
  code: 2 * MiB,
  csv: Number.POSITIVE_INFINITY,
  image: 25 * MiB,
  video: Number.POSITIVE_INFINITY,
  audio: Number.POSITIVE_INFINITY,
  pdf: 50 * MiB,
  gz: Number.POSITIVE_INFINITY,
  doc: Number.POSITIVE_INFINITY,
  unknown: Number.POSITIVE_INFINITY,
};

/** View source loads the whole text: this is its limit whatever the renderer. */
export const VIEW_SOURCE_MAX_BYTES = 2 * MiB;

const kind = (
  renderer: PreviewRenderer,
  language: string,
  icon: FileIconName,
  flags: { previewable?: boolean; viewSource?: boolean } = {},
): PreviewKind => ({
  renderer,
  language,
  icon,
  previewable: flags.previewable ?? true,
  viewSource: flags.viewSource ?? false,
});

const code = (language: string) => kind('code', language, 'text');
const image = kind('image', '', 'image');
const video = kind('video', '', 'video');
const audio = kind('audio', '', 'audio');
const doc = kind('doc', '', 'doc');

/** The one preview registry: file extension → kind. */
export const previewRegistry: Readonly<Record<string, PreviewKind>> = {
  md: kind('markdown', 'Markdown', 'markdown', { viewSource: true }),
  markdown: kind('markdown', 'Markdown', 'markdown', { viewSource: true }),
  html: kind('web', 'HTML', 'web', { viewSource: true }),
  htm: kind('web', 'HTML', 'web', { viewSource: true }),
  xml: kind('iframe', 'XML', 'code', { viewSource: true }),
  csv: kind('csv', '', 'table', { viewSource: true }),
  tsv: kind('csv', '', 'table'),
  svg: kind('image', 'XML', 'image', { viewSource: true }),
  png: image,
  jpg: image,
  jpeg: image,
  gif: image,
  webp: image,
  bmp: image,
  ico: image,
  avif: image,
  mp4: video,
  webm: video,
  ogv: video,
  mov: video,
  mp3: audio,
  wav: audio,
  ogg: audio,
  oga: audio,
  flac: audio,
  m4a: audio,
  pdf: kind('pdf', '', 'pdf'),
  gz: kind('gz', '', 'archive'),
  gzip: kind('gz', '', 'archive'),
  doc,
  docx: doc,
  ppt: doc,
  pptx: doc,
  odt: doc,
  rtf: doc,
  xls: kind('doc', '', 'sheet', { previewable: false }),
  xlsx: kind('doc', '', 'sheet', { previewable: false }),
  txt: code('Plain Text'),
  log: code('Plain Text'),
  json: code('JSON'),
  jsonl: code('JSON'),
  yaml: code('YAML'),
  yml: code('YAML'),
  toml: code('TOML'),
  ini: code('Properties files'),
  cfg: code('Properties files'),
  css: code('CSS'),
  js: code('JavaScript'),
  mjs: code('JavaScript'),
  jsx: code('JSX'),
  ts: code('TypeScript'),
  tsx: code('TSX'),
  py: code('Python'),
  go: code('Go'),
  rs: code('Rust'),
  java: code('Java'),
  c: code('C'),
  h: code('C'),
  cpp: code('C++'),
  hpp: code('C++'),
  sh: code('Shell'),
  sql: code('SQL'),
  r: code('R'),
  rb: code('Ruby'),
  php: code('PHP'),
  pl: code('Perl'),
  proto: code('Protocol Buffer'),
  v: code('Verilog'),
  sv: code('Verilog'),
  vh: code('Verilog'),
  vhd: code('VHDL'),
  vhdl: code('VHDL'),
  tcl: code('Tcl'),
};

const unknownKind = kind('unknown', '', 'file');
const WELL_KNOWN_TEXT_NAMES = new Set(['Makefile', 'Dockerfile', 'README', 'LICENSE']);

export function fileExtension(path: string): string {
  const name = path.split('/').filter(Boolean).at(-1) ?? '';
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The kind of a file path: by extension, some well-known names as text, else unknown. */
export function previewKindOf(path: string): PreviewKind {
  const known = previewRegistry[fileExtension(path)];
  if (known) return known;
  const name = path.split('/').filter(Boolean).at(-1) ?? '';
  return WELL_KNOWN_TEXT_NAMES.has(name) ? code('Plain Text') : unknownKind;
}

export type PreviewDecision =
  | { show: 'preview'; kind: PreviewKind }
  | { show: 'download'; kind: PreviewKind; reason: 'not-previewable' | 'unknown' }
  | { show: 'too-large'; kind: PreviewKind; limitBytes: number };

/** What the preview pane does with a file: render it, say it is too large, or offer a download. */
export function previewDecision(
  info: Pick<FileInfo, 'sizeBytes'> & { path: string },
): PreviewDecision {
  const found = previewKindOf(info.path);
  if (!found.previewable) return { show: 'download', kind: found, reason: 'not-previewable' };
  if (found.renderer === 'unknown') return { show: 'download', kind: found, reason: 'unknown' };
  const limitBytes = RENDERER_MAX_BYTES[found.renderer];
  if (Number(info.sizeBytes) > limitBytes) return { show: 'too-large', kind: found, limitBytes };
  return { show: 'preview', kind: found };
}
