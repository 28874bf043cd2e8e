import { Alert, Button, List, Typography } from 'antd';
import { Link } from 'react-router';
import type { FileInfo } from '@ivory/api';
import { formatBytes } from '../../format/bytes.ts';
import { testIds } from '../../test-ids.ts';
import { GLOB_MAX_RESULTS, useGlob } from './api.ts';

/** The files of a commit matching a glob pattern, each linking to its preview. */
export function GlobResults({
  ref_,
  pattern,
  hrefOf,
  onClose,
}: {
  ref_: { project: string; repo: string; commitId: string };
  pattern: string;
  hrefOf: (info: FileInfo) => string;
  onClose: () => void;
}) {
  const glob = useGlob(ref_.project, ref_.repo, ref_.commitId, pattern);
  const matches = glob.data ?? [];
  return (
    <section
      aria-label="Search results"
      style={{ border: '1px solid var(--ivory-border-secondary)', borderRadius: 6, padding: 8 }}
    >
      <Typography.Text strong>
        Matches for <Typography.Text code>{pattern}</Typography.Text>
        {glob.data ? ` (${matches.length.toLocaleString()})` : ''}
      </Typography.Text>{' '}
      <Button size="small" type="link" onClick={onClose}>
        Close
      </Button>
      {glob.error ? <Alert type="error" showIcon message={glob.error.message} /> : null}
      <List<FileInfo>
        size="small"
        loading={glob.isPending}
        dataSource={matches.slice(0, GLOB_MAX_RESULTS)}
        style={{ maxHeight: 240, overflow: 'auto' }}
        locale={{ emptyText: 'No files match' }}
        renderItem={(info) => (
          <List.Item data-testid={testIds.fileSearchResult}>
            <Link to={hrefOf(info)}>{info.file.path}</Link>
            <span>{info.fileType === 'DIR' ? 'folder' : formatBytes(info.sizeBytes)}</span>
          </List.Item>
        )}
      />
      {matches.length > GLOB_MAX_RESULTS ? (
        <Typography.Text type="secondary">
          Showing the first {GLOB_MAX_RESULTS}; narrow the pattern for the rest.
        </Typography.Text>
      ) : null}
    </section>
  );
}
