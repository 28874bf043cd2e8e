import { Button, List, Tag, Typography } from 'antd';
import type { CommitInfo } from '@ivory/api';
import { formatBytes } from '../../format/bytes.ts';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { useBranchCommits } from './api.ts';

function commitState(info: CommitInfo): string {
  if (info.error) return 'FAILED';
  if (info.finished) return 'FINISHED';
  if (info.finishing) return 'FINISHING';
  return 'STARTED';
}

/** The branch's commits, a page at a time; the selected one is highlighted. */
export function CommitList({
  project,
  repo,
  branch,
  selectedId,
  onSelect,
}: {
  project: string;
  repo: string;
  branch: string;
  selectedId: string;
  onSelect: (commitId: string) => void;
}) {
  const commits = useBranchCommits(project, repo, branch);
  const items = commits.data?.pages.flat() ?? [];

  return (
    <List<CommitInfo>
      size="small"
      loading={commits.isPending && branch !== ''}
      dataSource={items}
      locale={{ emptyText: commits.error ? commits.error.message : 'No commits' }}
      rowKey={(info) => info.commit.id}
      renderItem={(info) => {
        const selected = info.commit.id === selectedId;
        return (
          <List.Item
            data-testid={testIds.commitRow}
            aria-current={selected || undefined}
            onClick={() => onSelect(info.commit.id)}
            style={{
              cursor: 'pointer',
              background: selected ? '#f0e9fb' : undefined,
              paddingInline: 8,
            }}
          >
            <List.Item.Meta
              title={
                info.description || (
                  <Typography.Text type="secondary">No commit message</Typography.Text>
                )
              }
              description={
                <>
                  <Typography.Text code copyable={{ text: info.commit.id }}>
                    {info.commit.id.slice(0, 8)}
                  </Typography.Text>{' '}
                  <Tag>{commitState(info)}</Tag>
                  {formatBytes(info.details?.sizeBytes ?? info.sizeBytesUpperBound)} ·{' '}
                  {formatTimestamp(info.finished ?? info.started)}
                </>
              }
            />
          </List.Item>
        );
      }}
      loadMore={
        commits.hasNextPage ? (
          <Button
            block
            data-testid={testIds.commitListMore}
            loading={commits.isFetchingNextPage}
            onClick={() => void commits.fetchNextPage()}
          >
            Load more commits
          </Button>
        ) : null
      }
    />
  );
}
