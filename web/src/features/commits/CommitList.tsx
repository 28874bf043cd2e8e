import { Button, Spin, Tag, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import type { CommitInfo } from '@ivory/api';
import { formatBytes } from '../../format/bytes.ts';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { useBranchCommits } from './api.ts';
import { commitState, originLabel, stateColors } from './commit-state.ts';

/**
 * The branch's commits, newest first, a page at a time: the next page loads when the end of the
 * list scrolls into view (or with the Load more button). Each entry is a button.
 */
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
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = commits;

  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage)
        void fetchNextPage();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (commits.isPending && branch !== '') return <Spin />;
  return (
    <div
      role="list"
      aria-label="Commits"
      style={{ maxHeight: 640, overflowY: 'auto', marginTop: 8 }}
    >
      {items.length === 0 ? (
        <Typography.Text type="secondary">
          {commits.error ? commits.error.message : 'No commits'}
        </Typography.Text>
      ) : null}
      {items.map((info) => (
        <CommitEntry
          key={info.commit.id}
          info={info}
          selected={info.commit.id === selectedId}
          onSelect={onSelect}
        />
      ))}
      <div ref={sentinel} />
      {hasNextPage ? (
        <Button
          block
          data-testid={testIds.commitListMore}
          loading={isFetchingNextPage}
          onClick={() => void fetchNextPage()}
        >
          Load more commits
        </Button>
      ) : null}
    </div>
  );
}

function CommitEntry({
  info,
  selected,
  onSelect,
}: {
  info: CommitInfo;
  selected: boolean;
  onSelect: (commitId: string) => void;
}) {
  const state = commitState(info);
  return (
    <div
      role="listitem"
      data-testid={testIds.commitRow}
      data-commit-id={info.commit.id}
      aria-current={selected || undefined}
      onClick={(event) => {
        // The whole entry opens the commit; the message button does it from the keyboard.
        if (!(event.target as HTMLElement).closest('button, a, [role="button"]'))
          onSelect(info.commit.id);
      }}
      style={{
        cursor: 'pointer',
        borderBottom: '1px solid var(--ivory-border-secondary)',
        background: selected ? 'var(--ivory-selected)' : undefined,
        padding: '6px 8px',
      }}
    >
      <button
        type="button"
        onClick={() => onSelect(info.commit.id)}
        style={{
          all: 'unset',
          cursor: 'pointer',
          display: 'block',
          width: '100%',
          fontWeight: 500,
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
        }}
      >
        {info.description || 'No commit message'}
      </button>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        <Typography.Text code copyable={{ text: info.commit.id }}>
          {info.commit.id.slice(0, 8)}
        </Typography.Text>{' '}
        <Tag color={stateColors[state]}>{state}</Tag>
        <Tag>{originLabel(info)}</Tag>
        {/* Each fact wraps as a whole: a date never breaks in the middle. */}
        <span className="ivory-nowrap">
          {formatBytes(info.details?.sizeBytes ?? info.sizeBytesUpperBound)}
        </span>{' '}
        · {info.createdBy ? <span className="ivory-nowrap">{info.createdBy}</span> : null}
        {info.createdBy ? ' · ' : ''}
        <span className="ivory-nowrap">
          {formatTimestamp(info.finished ?? info.started)}
        </span> ·{' '}
        <span className="ivory-nowrap">
          {info.parentCommit ? `parent ${info.parentCommit.id.slice(0, 8)}` : 'root'}
        </span>
      </Typography.Text>
    </div>
  );
}
