import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Spin, Typography } from 'antd';
import { useMemo } from 'react';
import { COMMIT_CONTENT_STALE_TIME_MS, queryKeys } from '../../data/query-keys.ts';
import { formatBytes } from '../../format/bytes.ts';
import { testIds } from '../../test-ids.ts';
import { fetchRange } from './file-prefix.ts';
import { LARGE_TEXT_CHUNK_BYTES, appendBytes, headAndTail } from './large-text.ts';

const preStyle = {
  margin: 0,
  maxHeight: 360,
  overflow: 'auto',
  padding: 8,
  background: 'var(--ivory-code-bg)',
  fontSize: 12,
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
} as const;

/**
 * A text file over the inline preview limit: its first and last lines through range requests,
 * with "Load more" reading the next part after the head until it meets the tail.
 */
export function LargeTextPreview({ url, size }: { url: string; size: number }) {
  const chunk = LARGE_TEXT_CHUNK_BYTES;
  const tailStart = Math.max(0, size - chunk);
  const tail = useQuery({
    queryKey: queryKeys.fileRange(url, tailStart, size - 1),
    queryFn: ({ signal }) => fetchRange(url, tailStart, size - 1, signal),
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
  });
  const head = useInfiniteQuery({
    queryKey: queryKeys.fileHead(url, chunk),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      fetchRange(url, pageParam, Math.min(pageParam + chunk, tailStart) - 1, signal),
    getNextPageParam: (_last, pages) => {
      const read = pages.reduce((sum, page) => sum + page.length, 0);
      return read < tailStart ? read : undefined;
    },
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
  });
  const shown = useMemo(() => {
    if (!head.data || !tail.data) return null;
    const headBytes = head.data.pages.reduce(appendBytes, new Uint8Array(0));
    return headAndTail(size, headBytes, tail.data);
  }, [head.data, tail.data, size]);

  const error = head.error ?? tail.error;
  if (error) return <Alert type="error" showIcon message={error.message} />;
  if (!shown) return <Spin />;
  return (
    <Flex vertical gap={8} data-testid={testIds.largeTextPreview}>
      <Typography.Text type="secondary">
        Large file: its first and last lines are shown; load more to read on.
      </Typography.Text>
      <pre data-testid={testIds.largeTextHead} style={preStyle}>
        {shown.head}
      </pre>
      {shown.hiddenBytes > 0 ? (
        <Flex align="center" gap={8}>
          <Typography.Text type="secondary" data-testid={testIds.largeTextGap}>
            … {formatBytes(shown.hiddenBytes)} not shown …
          </Typography.Text>
          <Button
            size="small"
            data-testid={testIds.largeTextMore}
            loading={head.isFetchingNextPage}
            disabled={!head.hasNextPage}
            onClick={() => void head.fetchNextPage()}
          >
            Load more
          </Button>
        </Flex>
      ) : null}
      {shown.tail ? (
        <pre data-testid={testIds.largeTextTail} style={preStyle}>
          {shown.tail}
        </pre>
      ) : null}
    </Flex>
  );
}
