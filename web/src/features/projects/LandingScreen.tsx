import { Button, Flex, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState, type HTMLAttributes } from 'react';
import { Link } from 'react-router';
import { formatBytes } from '../../format/bytes.ts';
import { testIds } from '../../test-ids.ts';
import { ConfirmModal } from '../../ui/Modal/index.ts';
import { useToast } from '../../ui/Toast/index.ts';
import {
  pipelineCount,
  useDeleteProject,
  usePipelinesSummary,
  useProjects,
  useReposSummary,
} from './api.ts';
import { ProjectFormModal } from './ProjectFormModal.tsx';
import { NoWrap } from '../../ui/NoWrap/index.ts';

interface ProjectRow {
  name: string;
  description: string;
  repoCount: number | null;
  pipelineCount: number | null;
  sizeBytes: number;
}

/**
 * The projects list on the home screen (under the benchmarking overview): every project with its
 * repo and pipeline counts and size; create, edit, delete.
 */
export function LandingScreen() {
  const toast = useToast();
  const projects = useProjects();
  const names = useMemo(
    () => (projects.data ?? []).map((info) => info.project.name),
    [projects.data],
  );
  const repos = useReposSummary(names);
  const pipelines = usePipelinesSummary(names);
  const remove = useDeleteProject();
  const [form, setForm] = useState<{ editing: ProjectRow | null } | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);

  const rows = useMemo<ProjectRow[]>(() => {
    const repoSummary = new Map((repos.data ?? []).map((s) => [s.project.name, s]));
    const pipelineSummary = new Map((pipelines.data ?? []).map((s) => [s.project.name, s]));
    return (projects.data ?? []).map((info) => {
      const r = repoSummary.get(info.project.name);
      const p = pipelineSummary.get(info.project.name);
      return {
        name: info.project.name,
        description: info.description,
        repoCount: r ? Number(r.userRepoCount) : null,
        pipelineCount: p ? pipelineCount(p) : pipelines.data ? 0 : null,
        sizeBytes: Number(r?.sizeBytes ?? 0),
      };
    });
  }, [projects.data, repos.data, pipelines.data]);
  if (projects.error) throw projects.error;

  const columns: ColumnsType<ProjectRow> = [
    {
      key: 'name',
      title: 'Project',
      sorter: (a, b) => a.name.localeCompare(b.name),
      defaultSortOrder: 'ascend',
      render: (_, row) => (
        <Link to={`/project/${encodeURIComponent(row.name)}/repos`}>{row.name}</Link>
      ),
    },
    { key: 'description', title: 'Description', render: (_, row) => row.description },
    {
      key: 'repos',
      title: 'Repos',
      sorter: (a, b) => (a.repoCount ?? -1) - (b.repoCount ?? -1),
      render: (_, row) => (row.repoCount === null ? '-' : row.repoCount),
    },
    {
      key: 'pipelines',
      title: 'Pipelines',
      sorter: (a, b) => (a.pipelineCount ?? -1) - (b.pipelineCount ?? -1),
      render: (_, row) =>
        row.pipelineCount === null ? (
          <Typography.Text type="secondary" title="The platform reports no pipeline information">
            n/a
          </Typography.Text>
        ) : (
          row.pipelineCount
        ),
    },
    {
      key: 'size',
      title: 'Size',
      sorter: (a, b) => a.sizeBytes - b.sizeBytes,
      render: (_, row) => <NoWrap>{formatBytes(row.sizeBytes)}</NoWrap>,
    },
    {
      key: 'actions',
      title: 'Actions',
      render: (_, row) => (
        <Space>
          <Button
            size="small"
            data-testid={testIds.editProjectButton}
            aria-label={`Edit ${row.name}`}
            onClick={() => setForm({ editing: row })}
          >
            Edit
          </Button>
          <Button
            size="small"
            danger
            data-testid={testIds.deleteProjectButton}
            aria-label={`Delete ${row.name}`}
            onClick={() => setDeleting(row.name)}
          >
            Delete
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <section id="projects" style={{ marginTop: 24 }}>
      <Flex justify="space-between" align="center">
        <Typography.Title level={2}>Projects</Typography.Title>
        <Button
          type="primary"
          data-testid={testIds.createProjectButton}
          onClick={() => setForm({ editing: null })}
        >
          Create project
        </Button>
      </Flex>
      <Table<ProjectRow>
        rowKey="name"
        loading={projects.isPending}
        columns={columns}
        dataSource={rows}
        pagination={false}
        onRow={() => ({ 'data-testid': testIds.projectRow }) as HTMLAttributes<HTMLElement>}
      />
      {form ? <ProjectFormModal open editing={form.editing} onClose={() => setForm(null)} /> : null}
      <ConfirmModal
        open={deleting !== null}
        title="Delete project"
        text={`Delete project ${deleting ?? ''}? Its repos must be deleted first.`}
        confirmText="Delete"
        confirmLoading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const name = deleting ?? '';
          remove.mutate(name, {
            onSuccess: () => toast({ content: `Project ${name} deleted` }),
            onError: (error) => toast({ type: 'error', content: error.message }),
            onSettled: () => setDeleting(null),
          });
        }}
      />
    </section>
  );
}
