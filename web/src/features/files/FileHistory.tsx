import { Button, List, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { useFileHistory } from './api.ts';
import type { FileChange } from './history.ts';

/** The commits that changed a file, shown on request and paged back through the branch. */
export function FileHistory(props: {
  project: string;
  repo: string;
  commitId: string;
  path: string;
  commitTo?: (commitId: string, path: string) => string;
}) {
  const [open, setOpen] = useState(false);
  if (!open)
    return (
      <Button size="small" onClick={() => setOpen(true)} style={{ alignSelf: 'flex-start' }}>
        Show file history
      </Button>
    );
  return <HistoryList {...props} />;
}

function HistoryList({
  project,
  repo,
  commitId,
  path,
  commitTo,
}: {
  project: string;
  repo: string;
  commitId: string;
  path: string;
  commitTo?: (commitId: string, path: string) => string;
}) {
  const history = useFileHistory(project, repo, commitId, path);
  const changes = history.data?.pages.flatMap((page) => page.changes) ?? [];
  return (
    <section data-testid={testIds.fileHistory} aria-label="File history">
      <Typography.Text strong>History of {path}</Typography.Text>
      <List<FileChange>
        size="small"
        loading={history.isPending}
        dataSource={changes}
        locale={{ emptyText: history.error ? history.error.message : 'No changes found yet' }}
        renderItem={(change) => (
          <List.Item data-testid={testIds.fileHistoryRow}>
            <span>
              <Tag>{change.change}</Tag>
              {commitTo ? (
                <Link
                  to={commitTo(change.commit.commit.id, change.change === 'deleted' ? '' : path)}
                >
                  {change.commit.commit.id.slice(0, 8)}
                </Link>
              ) : (
                change.commit.commit.id.slice(0, 8)
              )}{' '}
              {change.commit.description}
            </span>
            <Typography.Text type="secondary">
              {formatTimestamp(change.commit.finished ?? change.commit.started)}
            </Typography.Text>
          </List.Item>
        )}
        loadMore={
          history.hasNextPage ? (
            <Button
              size="small"
              block
              loading={history.isFetchingNextPage}
              onClick={() => void history.fetchNextPage()}
            >
              Load more
            </Button>
          ) : null
        }
      />
    </section>
  );
}
