import { Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, type HTMLAttributes } from 'react';
import { Link } from 'react-router';
import { formatBytes } from '../../format/bytes.ts';
import { testIds } from '../../test-ids.ts';
import { useProjects, useReposSummary } from './api.ts';

interface ProjectRow {
  name: string;
  description: string;
  repoCount: string;
  sizeBytes: string;
}

const columns: ColumnsType<ProjectRow> = [
  {
    title: 'Project',
    dataIndex: 'name',
    render: (name: string) => <Link to={`/project/${encodeURIComponent(name)}/repos`}>{name}</Link>,
  },
  { title: 'Description', dataIndex: 'description' },
  { title: 'Repos', dataIndex: 'repoCount' },
  { title: 'Size', dataIndex: 'sizeBytes', render: (size: string) => formatBytes(size) },
];

/** The home screen: every project with its repo count and size. */
export function LandingScreen() {
  const projects = useProjects();
  const names = useMemo(
    () => (projects.data ?? []).map((info) => info.project.name),
    [projects.data],
  );
  const summaries = useReposSummary(names);

  const rows = useMemo<ProjectRow[]>(() => {
    const byProject = new Map(
      (summaries.data ?? []).map((summary) => [summary.project.name, summary]),
    );
    return (projects.data ?? []).map((info) => {
      const summary = byProject.get(info.project.name);
      return {
        name: info.project.name,
        description: info.description,
        repoCount: summary?.userRepoCount ?? '-',
        sizeBytes: summary?.sizeBytes ?? '0',
      };
    });
  }, [projects.data, summaries.data]);
  if (projects.error) throw projects.error;

  return (
    <main style={{ padding: 24 }}>
      <Typography.Title level={2}>Projects</Typography.Title>
      <Table<ProjectRow>
        rowKey="name"
        loading={projects.isPending}
        columns={columns}
        dataSource={rows}
        pagination={false}
        onRow={() => ({ 'data-testid': testIds.projectRow }) as HTMLAttributes<HTMLElement>}
      />
    </main>
  );
}
