import { Descriptions, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import type { CommitInfo } from '@ivory/api';
import { formatBytes } from '../../format/bytes.ts';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { CommitActions } from './CommitActions.tsx';
import { commitState, originLabel, stateColors } from './commit-state.ts';

/** A commit's facts: message, id, branch, origin, state, size, author, times and parent. */
export function CommitDetails({
  info,
  commitTo,
  project,
  repo,
  onRemoved,
  jobTo,
}: {
  info: CommitInfo;
  commitTo: (commitId: string) => string;
  /** A pipeline's output commit: where the job that made it is shown (its logs and datums). */
  jobTo?: string;
  /** With project, repo and onRemoved: the Squash / Drop actions (onRemoved gets the new head). */
  project?: string;
  repo?: string;
  onRemoved?: (headCommitId: string) => void;
}) {
  const state = commitState(info);
  return (
    <Descriptions
      data-testid={testIds.commitDetails}
      size="small"
      column={{ xs: 1, md: 2, xl: 3 }}
      title={info.description || 'No commit message'}
      extra={
        project && repo && onRemoved ? (
          <CommitActions project={project} repo={repo} info={info} onRemoved={onRemoved} />
        ) : null
      }
      items={[
        {
          key: 'id',
          label: 'Commit',
          children: (
            <Typography.Text copyable code>
              {info.commit.id}
            </Typography.Text>
          ),
        },
        { key: 'branch', label: 'Branch', children: info.commit.branch?.name || '-' },
        { key: 'origin', label: 'Origin', children: originLabel(info) },
        ...(jobTo
          ? [
              {
                key: 'job',
                label: 'Made by',
                children: <Link to={jobTo}>job {info.commit.id.slice(0, 8)}</Link>,
              },
            ]
          : []),
        { key: 'state', label: 'State', children: <Tag color={stateColors[state]}>{state}</Tag> },
        {
          key: 'size',
          label: 'Size',
          children: formatBytes(info.details?.sizeBytes ?? info.sizeBytesUpperBound),
        },
        { key: 'author', label: 'Author', children: info.createdBy || '-' },
        { key: 'started', label: 'Started', children: formatTimestamp(info.started) },
        { key: 'finished', label: 'Finished', children: formatTimestamp(info.finished) },
        {
          key: 'parent',
          label: 'Parent',
          children: info.parentCommit ? (
            <Link to={commitTo(info.parentCommit.id)}>{info.parentCommit.id.slice(0, 8)}</Link>
          ) : (
            'none'
          ),
        },
      ]}
    />
  );
}
