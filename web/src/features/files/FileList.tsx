import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { FileInfo } from '@ivory/api';
import { formatBytes } from '../../format/bytes.ts';
import { testIds } from '../../test-ids.ts';
import { previewKindOf } from '../preview/registry.ts';
import { baseName } from './file-path.ts';
import { FileIcon } from './FileIcon.tsx';

export const FILE_ROW_HEIGHT = 40;
/** Start loading the next page when this few rows remain below the window. */
const LOAD_AHEAD_ROWS = 200;

const rowStyle = {
  display: 'grid',
  // The name keeps room for a few characters; the other columns give way on a narrow pane.
  gridTemplateColumns:
    '24px 20px minmax(10ch, 1fr) minmax(0, 80px) minmax(0, 52px) minmax(0, 72px)',
  alignItems: 'center',
  gap: 8,
  paddingInline: 8,
  height: FILE_ROW_HEIGHT,
  borderBottom: '1px solid var(--ivory-border-secondary)',
} as const;

/**
 * A folder's entries in a virtualised window: only the rows in view are in the DOM, so a
 * 100,000-entry folder scrolls smoothly; more pages load as the window nears the end. Each name
 * is a link (reachable with Tab, opened with Enter); each row has a selection checkbox.
 */
export function FileList({
  files,
  selectedPath,
  hasMore,
  loadingMore,
  onLoadMore,
  hrefOf,
  onOpen,
  downloadUrl,
  checked,
  onCheck,
  height = 520,
}: {
  files: readonly FileInfo[];
  selectedPath: string;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  hrefOf: (info: FileInfo) => string;
  /** A click elsewhere on a row opens it too. */
  onOpen: (info: FileInfo) => void;
  downloadUrl: (info: FileInfo) => string;
  checked: ReadonlySet<string>;
  onCheck: (path: string, checked: boolean) => void;
  height?: number;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: files.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => FILE_ROW_HEIGHT,
    overscan: 10,
    initialRect: { width: 0, height },
  });
  const rows = virtualizer.getVirtualItems();
  const lastVisible = rows[rows.length - 1]?.index ?? 0;

  useEffect(() => {
    if (hasMore && !loadingMore && lastVisible >= files.length - LOAD_AHEAD_ROWS) onLoadMore();
  }, [hasMore, loadingMore, lastVisible, files.length, onLoadMore]);

  return (
    <div
      ref={scrollRef}
      data-testid={testIds.fileList}
      data-count={files.length}
      data-complete={!hasMore || undefined}
      role="list"
      aria-label="Files"
      style={{
        height,
        overflowY: 'auto',
        border: '1px solid var(--ivory-border-secondary)',
        borderRadius: 6,
      }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {rows.map((row) => {
          const info = files[row.index];
          if (!info) return null;
          const isFolder = info.fileType === 'DIR';
          const selected = info.file.path === selectedPath;
          const name = baseName(info.file.path);
          return (
            <div
              key={info.file.path}
              role="listitem"
              data-testid={testIds.fileRow}
              data-path={info.file.path}
              aria-current={selected || undefined}
              onClick={(event) => {
                if (!(event.target as HTMLElement).closest('a, input')) onOpen(info);
              }}
              style={{
                ...rowStyle,
                cursor: 'pointer',
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                transform: `translateY(${row.start}px)`,
                background: selected ? 'var(--ivory-selected)' : undefined,
              }}
            >
              <input
                type="checkbox"
                data-testid={testIds.fileSelect}
                aria-label={`Select ${name}`}
                checked={checked.has(info.file.path)}
                onChange={(event) => onCheck(info.file.path, event.target.checked)}
              />
              <FileIcon name={isFolder ? 'folder' : previewKindOf(info.file.path).icon} />
              <Link
                to={hrefOf(info)}
                style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                title={name}
              >
                {name}
              </Link>
              <span>{isFolder ? '-' : formatBytes(info.sizeBytes)}</span>
              <span>{isFolder ? 'folder' : 'file'}</span>
              <a href={downloadUrl(info)} download data-testid={testIds.fileDownload}>
                Download
              </a>
            </div>
          );
        })}
      </div>
    </div>
  );
}
