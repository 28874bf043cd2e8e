import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { FileInfo } from '@ivory/api';
import { formatBytes } from '../../format/bytes.ts';
import { testIds } from '../../test-ids.ts';
import { baseName } from './file-path.ts';

export const FILE_ROW_HEIGHT = 40;
/** Start loading the next page when this few rows remain below the window. */
const LOAD_AHEAD_ROWS = 50;

const rowStyle = {
  display: 'grid',
  gridTemplateColumns: '24px minmax(0, 1fr) 110px 70px 90px',
  alignItems: 'center',
  gap: 8,
  paddingInline: 8,
  height: FILE_ROW_HEIGHT,
  borderBottom: '1px solid #f0f0f0',
  cursor: 'pointer',
} as const;

/**
 * A folder's entries in a virtualised window: only the rows in view are in the DOM, so a
 * 100,000-entry folder scrolls smoothly; more pages load as the window nears the end.
 */
export function FileList({
  files,
  selectedPath,
  hasMore,
  loadingMore,
  onLoadMore,
  onOpen,
  downloadUrl,
  height = 520,
}: {
  files: readonly FileInfo[];
  selectedPath: string;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onOpen: (info: FileInfo) => void;
  downloadUrl: (info: FileInfo) => string;
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
      role="list"
      aria-label="Files"
      style={{ height, overflowY: 'auto', border: '1px solid #f0f0f0', borderRadius: 6 }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {rows.map((row) => {
          const info = files[row.index];
          if (!info) return null;
          const isFolder = info.fileType === 'DIR';
          const selected = info.file.path === selectedPath;
          return (
            <div
              key={info.file.path}
              role="listitem"
              data-testid={testIds.fileRow}
              data-path={info.file.path}
              aria-current={selected || undefined}
              onClick={() => onOpen(info)}
              style={{
                ...rowStyle,
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                transform: `translateY(${row.start}px)`,
                background: selected ? '#f0e9fb' : undefined,
              }}
            >
              <span aria-hidden>{isFolder ? '📁' : '📄'}</span>
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                {baseName(info.file.path)}
              </span>
              <span>{isFolder ? '-' : formatBytes(info.sizeBytes)}</span>
              <span>{isFolder ? 'folder' : 'file'}</span>
              <a
                href={downloadUrl(info)}
                download
                data-testid={testIds.fileDownload}
                onClick={(event) => event.stopPropagation()}
              >
                Download
              </a>
            </div>
          );
        })}
      </div>
    </div>
  );
}
