import { Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HTMLAttributes } from 'react';
import { Link } from 'react-router';
import type { RepoInfo } from '@ivory/api';
import { formatBytes } from '../../format/bytes.ts';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { useRepos } from './api.ts';
import { useProjectParams } from './route-params.ts';

export function repoSizeBytes(info: RepoInfo): number {
  return Number(info.details?.sizeBytes ?? info.sizeBytesUpperBound ?? 0);
}

function createdTime(info: RepoInfo): number {
  return info.created ? Date.parse(info.created) : 0;
}

function columnsFor(projectId: string): ColumnsType<RepoInfo> {
  return [
    {
      title: 'Name',
      key: 'name',
      sorter: (a, b) => a.repo.name.localeCompare(b.repo.name),
      defaultSortOrder: 'ascend',
      render: (_, info) => (
        <Link
          to={`/project/${encodeURIComponent(projectId)}/repos/${encodeURIComponent(info.repo.name)}/latest`}
        >
          {info.repo.name}
        </Link>
      ),
    },
    {
      title: 'Size',
      key: 'size',
      sorter: (a, b) => repoSizeBytes(a) - repoSizeBytes(b),
      render: (_, info) => formatBytes(repoSizeBytes(info)),
    },
    {
      title: 'Created',
      key: 'created',
      sorter: (a, b) => createdTime(a) - createdTime(b),
      render: (_, info) => formatTimestamp(info.created),
    },
    {
      title: 'Branches',
      key: 'branches',
      sorter: (a, b) => a.branches.length - b.branches.length,
      render: (_, info) => info.branches.map((branch) => branch.name).join(', ') || '-',
    },
    {
      title: 'Description',
      key: 'description',
      sorter: (a, b) => a.description.localeCompare(b.description),
      render: (_, info) => info.description,
    },
  ];
}

/** The project's repos, sortable by name, size, creation time, branches and description. */
export function ReposScreen() {
  const { projectId } = useProjectParams();
  const repos = useRepos(projectId);
  if (repos.error) throw repos.error;

  return (
    <main style={{ padding: 24 }}>
      <Typography.Title level={2}>Repositories</Typography.Title>
      <Typography.Paragraph type="secondary">Project: {projectId}</Typography.Paragraph>
      <Table<RepoInfo>
        rowKey={(info) => info.repo.name}
        loading={repos.isPending}
        columns={columnsFor(projectId)}
        dataSource={repos.data ?? []}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        onRow={() => ({ 'data-testid': testIds.repoRow }) as HTMLAttributes<HTMLElement>}
      />
    </main>
  );
}
