import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import { COMMIT_CONTENT_STALE_TIME_MS, queryKeys } from '../../../data/query-keys.ts';
import { testIds } from '../../../test-ids.ts';
import { GZ_PREFIX_BYTES, filePrefixQuery } from '../file-prefix.ts';
import { gunzipPrefix } from '../load.ts';
import { Loading } from './Loading.tsx';
import type { RendererProps } from './types.ts';

/** The start of a gzip file's inflated text (only its first compressed bytes are read). */
export default function GzPreview({ url }: RendererProps) {
  const text = useQuery({
    queryKey: queryKeys.filePreview(url, 'gz'),
    queryFn: async ({ client }) =>
      gunzipPrefix(await client.fetchQuery(filePrefixQuery(url, GZ_PREFIX_BYTES))),
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
  });
  return (
    <Loading pending={text.isPending} error={text.error}>
      {() => (
        <>
          <pre
            data-testid={testIds.gzPreview}
            style={{
              maxHeight: 480,
              overflow: 'auto',
              fontSize: 12,
              background: 'var(--ivory-bg-subtle)',
              padding: 8,
            }}
          >
            {text.data?.text}
          </pre>
          {text.data?.truncated ? (
            <Typography.Text type="secondary">
              The start of the decompressed file; download it for the rest.
            </Typography.Text>
          ) : null}
        </>
      )}
    </Loading>
  );
}
