import { Descriptions, Drawer, List, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import type { RepoInfo } from '@ivory/api';
import { formatBytes } from '../../format/bytes.ts';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { repoResource } from '../roles/api.ts';
import { RolesPanel } from '../roles/RolesPanel.tsx';
import { UploadAction } from '../roles/UploadAction.tsx';
import { useBranches, useRecentCommits } from './api.ts';

const RECENT_COMMITS = 10;

export function Labels({ labels }: { labels: Record<string, string> | null | undefined }) {
  const entries = Object.entries(labels ?? {});
  if (entries.length === 0) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <>
      {entries.map(([key, value]) => (
        <Tag key={key}>
          {key}={value}
        </Tag>
      ))}
    </>
  );
}

/** A side panel on a repo: its facts, branches with their heads, and its newest commits. */
export function RepoPanel({
  project,
  info,
  onClose,
}: {
  project: string;
  info: RepoInfo;
  onClose: () => void;
}) {
  const repo = info.repo.name;
  const base = `/project/${encodeURIComponent(project)}/repos/${encodeURIComponent(repo)}`;
  const branches = useBranches(project, repo);
  const commits = useRecentCommits(project, repo, RECENT_COMMITS);
  return (
    <Drawer open onClose={onClose} title={repo} width={480}>
      <div data-testid={testIds.repoPanel}>
        <Descriptions
          size="small"
          column={1}
          items={[
            { key: 'description', label: 'Description', children: info.description || '-' },
            {
              key: 'size',
              label: 'Size',
              children: formatBytes(info.details?.sizeBytes ?? info.sizeBytesUpperBound),
            },
            { key: 'created', label: 'Created', children: formatTimestamp(info.created) },
            {
              key: 'labels',
              label: 'Labels',
              children: <Labels labels={info.metadata} />,
            },
          ]}
        />
        <Typography.Paragraph>
          <Link to={`${base}/latest`}>Open files</Link> ·{' '}
          <UploadAction project={project} repo={repo} to={`${base}/upload`} />
        </Typography.Paragraph>
        <Typography.Title level={5}>Branches</Typography.Title>
        <List
          size="small"
          loading={branches.isPending}
          dataSource={branches.data ?? []}
          locale={{ emptyText: 'No branches' }}
          renderItem={(branch) => (
            <List.Item>
              <span>{branch.branch.name}</span>
              {branch.head ? (
                <Link to={`${base}/commit/${branch.head.id}`}>{branch.head.id.slice(0, 8)}</Link>
              ) : (
                'no head'
              )}
            </List.Item>
          )}
        />
        <Typography.Title level={5}>Recent commits</Typography.Title>
        <List
          size="small"
          loading={commits.isPending}
          dataSource={commits.data ?? []}
          locale={{ emptyText: commits.error ? commits.error.message : 'No commits' }}
          renderItem={(commit) => (
            <List.Item>
              <Link to={`${base}/commit/${commit.commit.id}`}>{commit.commit.id.slice(0, 8)}</Link>
              <span style={{ flex: 1, marginInline: 8 }}>{commit.description}</span>
              <Typography.Text type="secondary">
                {formatTimestamp(commit.finished ?? commit.started)}
              </Typography.Text>
            </List.Item>
          )}
        />
        <RolesPanel resource={repoResource(project, repo)} />
      </div>
    </Drawer>
  );
}
