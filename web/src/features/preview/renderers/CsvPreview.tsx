import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Typography } from 'antd';
import { useRef } from 'react';
import { COMMIT_CONTENT_STALE_TIME_MS, queryKeys } from '../../../data/query-keys.ts';
import { testIds } from '../../../test-ids.ts';
import { CSV_PREFIX_BYTES, filePrefixQuery } from '../file-prefix.ts';
import { firstRowsOf, type CsvRows } from '../load.ts';
import { Loading } from './Loading.tsx';
import type { RendererProps } from './types.ts';

const ROW_HEIGHT = 28;

function firstRowsQuery({ url, name }: Pick<RendererProps, 'url' | 'name'>) {
  const delimiter = name.toLowerCase().endsWith('.tsv') ? '\t' : '';
  return queryOptions({
    queryKey: queryKeys.filePreview(url, 'csv'),
    queryFn: async ({ client }) =>
      firstRowsOf(await client.fetchQuery(filePrefixQuery(url, CSV_PREFIX_BYTES)), { delimiter }),
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
  });
}

/** The renderer's `prefetch` (see RendererModule): the first rows. */
export function prefetch(queryClient: QueryClient, props: RendererProps): Promise<void> {
  return queryClient.prefetchQuery(firstRowsQuery(props));
}

/**
 * The first rows of a CSV/TSV file in a virtualised table. Only a prefix of the file is read
 * (a Range request), whatever its size.
 */
export default function CsvPreview(props: RendererProps) {
  const rows = useQuery(firstRowsQuery(props));
  return (
    <Loading pending={rows.isPending} error={rows.error}>
      {() => <CsvTable data={rows.data as CsvRows} />}
    </Loading>
  );
}

/** Narrowest and widest a column starts; the table scrolls sideways past its panel. */
const COLUMN_PX = { min: 56, max: 280, perChar: 7.5, padding: 18 };

/** Each column's width from its longest text in the header and the first 50 rows. */
export function columnWidths(data: CsvRows): number[] {
  const sample = [data.header, ...data.rows.slice(0, 50)];
  const count = Math.max(...sample.map((row) => row.length));
  return Array.from({ length: count }, (_, column) => {
    const longest = Math.max(0, ...sample.map((row) => (row[column] ?? '').length));
    const width = Math.round(longest * COLUMN_PX.perChar + COLUMN_PX.padding);
    return Math.min(COLUMN_PX.max, Math.max(COLUMN_PX.min, width));
  });
}

function CsvTable({ data }: { data: CsvRows }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: data.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
    initialRect: { width: 0, height: 480 },
  });
  const widths = columnWidths(data);
  const template = widths.map((width) => `minmax(${width}px, 1fr)`).join(' ');
  const minWidth = widths.reduce((sum, width) => sum + width, 0);
  const cellStyle = {
    padding: '4px 8px',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    borderRight: '1px solid var(--ivory-border-secondary)',
  } as const;
  return (
    <div data-testid={testIds.csvPreview} style={{ minWidth: 0 }}>
      <div
        ref={scrollRef}
        role="table"
        aria-label="Rows of the file"
        aria-rowcount={data.rows.length + 1}
        // Scrolls both ways with the keyboard too (a scrolling region must be focusable).
        tabIndex={0}
        style={{
          // As tall as its rows, up to what the window leaves under the commit's header (at most
          // 480 px): a short file's sideways scrollbar sits right under its rows.
          maxHeight: 'clamp(200px, calc(100vh - 440px), 480px)',
          maxWidth: '100%',
          overflow: 'auto',
          border: '1px solid var(--ivory-border-secondary)',
          fontSize: 12,
        }}
      >
        <div
          role="row"
          style={{
            display: 'grid',
            gridTemplateColumns: template,
            position: 'sticky',
            top: 0,
            zIndex: 1,
            background: 'var(--ivory-bg-subtle)',
            fontWeight: 600,
            minWidth,
          }}
        >
          {data.header.map((cell, index) => (
            <div key={index} role="columnheader" style={cellStyle}>
              {cell}
            </div>
          ))}
        </div>
        <div
          style={{
            height: virtualizer.getTotalSize(),
            position: 'relative',
            minWidth,
          }}
        >
          {virtualizer.getVirtualItems().map((item) => (
            <div
              key={item.key}
              role="row"
              style={{
                display: 'grid',
                gridTemplateColumns: template,
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                height: ROW_HEIGHT,
                transform: `translateY(${item.start}px)`,
                borderBottom: '1px solid var(--ivory-border-secondary)',
              }}
            >
              {(data.rows[item.index] ?? []).map((cell, index) => (
                <div key={index} role="cell" style={cellStyle}>
                  {cell}
                </div>
              ))}
            </div>
          ))}
        </div>
      </div>
      <Typography.Text type="secondary">
        {data.truncated
          ? `Showing the first ${data.rows.length.toLocaleString()} rows; download the file for the rest.`
          : `${data.rows.length.toLocaleString()} rows`}
      </Typography.Text>
    </div>
  );
}
