import { Button, Flex, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType, SortOrder } from 'antd/es/table/interface';
import { useState, type HTMLAttributes } from 'react';
import { Link } from 'react-router';
import type { RepoInfo } from '@ivory/api';
import { formatBytes } from '../../format/bytes.ts';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { EmptyState } from '../../ui/EmptyState/index.ts';
import { ConfirmModal } from '../../ui/Modal/index.ts';
import { useToast } from '../../ui/Toast/index.ts';
import {
  useDeleteRepo,
  useProject,
  useRepoCount,
  useRepoHead,
  useRepoPage,
  useRepos,
} from './api.ts';
import { AfterFirstPaint } from './AfterFirstPaint.tsx';
import { CreateRepoModal, EditLabelsModal } from './RepoModals.tsx';
import { Labels, RepoPanel } from './RepoPanel.tsx';
import { REPO_PAGE_SIZE } from './repo-page-size.ts';
import { useProjectParams } from './route-params.ts';
import { projectResource } from '../roles/api.ts';
import { missingPermissionReason } from '../roles/permission-reasons.ts';
import { PermissionGate } from '../roles/PermissionGate.tsx';
import { ProjectRolesButton } from '../roles/ProjectRolesButton.tsx';
import { Screen } from '../../ui/Screen/index.ts';
import { NoWrap } from '../../ui/NoWrap/index.ts';

export function repoSizeBytes(info: RepoInfo): number {
  return Number(info.details?.sizeBytes ?? info.sizeBytesUpperBound ?? 0);
}

function createdTime(info: RepoInfo): number {
  return info.created ? Date.parse(info.created) : 0;
}

/** The platform's repo sort fields (spec section 3). */
export type RepoSortField = 'NAME' | 'PROJECT_REPO' | 'CREATED';

export function compareRepos(field: RepoSortField, a: RepoInfo, b: RepoInfo): number {
  if (field === 'CREATED') return createdTime(a) - createdTime(b);
  if (field === 'PROJECT_REPO') {
    const byProject = (a.repo.project?.name ?? '').localeCompare(b.repo.project?.name ?? '');
    if (byProject !== 0) return byProject;
  }
  return a.repo.name.localeCompare(b.repo.name);
}

/** The platform's order of repo names (SQLite's binary order), the order of ListRepo's pages. */
const byPlatformName = (a: RepoInfo, b: RepoInfo) =>
  a.repo.name < b.repo.name ? -1 : a.repo.name > b.repo.name ? 1 : 0;

/** Whether the caller may delete the repo: by its `authInfo`; no auth info means sign-in is off. */
export function mayDelete(info: RepoInfo): boolean {
  return !info.authInfo || info.authInfo.permissions.includes('REPO_DELETE');
}

const noCommit = <Typography.Text type="secondary">-</Typography.Text>;

function LastCommit({ project, repo }: { project: string; repo: string }) {
  const commit = useRepoHead(project, repo).data;
  if (!commit) return noCommit;
  return (
    <Link
      to={`/project/${encodeURIComponent(project)}/repos/${encodeURIComponent(repo)}/commit/${commit.commit.id}`}
      title={commit.description}
    >
      {commit.commit.id.slice(0, 8)}
    </Link>
  );
}

/** The project's repos: sortable table with size, branches, last commit and labels; actions. */
export function ReposScreen() {
  const { projectId } = useProjectParams();
  const toast = useToast();
  const project = useProject(projectId);
  const remove = useDeleteRepo(projectId);
  const [sortField, setSortField] = useState<RepoSortField>('NAME');
  const [sort, setSort] = useState<{ columnKey: string; order: SortOrder }>({
    columnKey: 'name',
    order: 'ascend',
  });
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [labelling, setLabelling] = useState<RepoInfo | null>(null);
  const [panel, setPanel] = useState<RepoInfo | null>(null);
  const [pageIndex, setPageIndex] = useState(0);
  // By name, ascending (the platform's order), the table shows the server's pages; any other
  // order needs every repo, so only then is the whole list fetched and sorted here.
  const paged = sortField !== 'CREATED' && sort.columnKey === 'name' && sort.order === 'ascend';
  const page = useRepoPage(projectId, pageIndex, REPO_PAGE_SIZE, paged);
  const count = useRepoCount(projectId);
  const all = useRepos(projectId, !paged);
  const repos = paged ? page : all;
  if (repos.error) throw repos.error;
  const total = count.data ?? all.data?.length;

  const orderOf = (key: string) => (sort.columnKey === key ? sort.order : null);
  const sorterFor = (field: RepoSortField) => (a: RepoInfo, b: RepoInfo) =>
    compareRepos(field, a, b);
  const repoBase = (name: string) =>
    `/project/${encodeURIComponent(projectId)}/repos/${encodeURIComponent(name)}`;

  // ListRepo's answer carries the caller's permissions on each repo (auth_info, as pachd
  // sends it with sign-in on; none with it off): no Authorize call per row.
  const deleteButton = (name: string, allowed: boolean, reason: string | undefined) => (
    <Button
      size="small"
      danger
      data-testid={testIds.deleteRepoButton}
      aria-label={`Delete ${name}`}
      disabled={!allowed}
      title={reason}
      onClick={() => setDeleting(name)}
    >
      Delete
    </Button>
  );

  const columns: ColumnsType<RepoInfo> = [
    {
      title: 'Name',
      key: 'name',
      sorter: paged ? byPlatformName : sorterFor(sortField === 'CREATED' ? 'NAME' : sortField),
      sortOrder: orderOf('name'),
      render: (_, info) => (
        <Link
          to={`${repoBase(info.repo.name)}/latest`}
          className="ivory-truncate"
          style={{ maxWidth: '28ch' }}
          title={info.repo.name}
        >
          {info.repo.name}
        </Link>
      ),
    },
    {
      title: 'Size',
      key: 'size',
      sorter: (a, b) => repoSizeBytes(a) - repoSizeBytes(b),
      sortOrder: orderOf('size'),
      render: (_, info) => <NoWrap>{formatBytes(repoSizeBytes(info))}</NoWrap>,
    },
    {
      title: 'Created',
      key: 'created',
      sorter: sorterFor('CREATED'),
      sortOrder: orderOf('created'),
      render: (_, info) => <NoWrap>{formatTimestamp(info.created)}</NoWrap>,
    },
    {
      title: 'Branches',
      key: 'branches',
      render: (_, info) => (
        <NoWrap>{info.branches.map((branch) => branch.name).join(', ') || '-'}</NoWrap>
      ),
    },
    {
      title: 'Last commit',
      key: 'lastCommit',
      render: (_, info) => (
        <AfterFirstPaint fallback={noCommit}>
          <LastCommit project={projectId} repo={info.repo.name} />
        </AfterFirstPaint>
      ),
    },
    { title: 'Labels', key: 'labels', render: (_, info) => <Labels labels={info.metadata} /> },
    {
      title: 'Description',
      key: 'description',
      // One line: the whole description is its tooltip.
      render: (_, info) => (
        <span className="ivory-truncate" style={{ maxWidth: 240 }} title={info.description}>
          {info.description}
        </span>
      ),
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, info) => (
        <Space size={4}>
          <Button
            size="small"
            onClick={() => setPanel(info)}
            aria-label={`Details of ${info.repo.name}`}
          >
            Details
          </Button>
          <Button
            size="small"
            data-testid={testIds.editLabelsButton}
            aria-label={`Edit labels of ${info.repo.name}`}
            onClick={() => setLabelling(info)}
          >
            Labels
          </Button>
          {mayDelete(info)
            ? deleteButton(info.repo.name, true, undefined)
            : deleteButton(info.repo.name, false, missingPermissionReason(['REPO_DELETE']))}
        </Space>
      ),
    },
  ];

  return (
    <Screen>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <div>
          <Typography.Title level={2} style={{ marginBottom: 0 }}>
            Repositories
          </Typography.Title>
          <Typography.Paragraph type="secondary">
            Project: {projectId}
            {project.data?.description ? ` — ${project.data.description}` : ''} ·{' '}
            {total !== undefined ? `${total} repos` : ''}
            {' · '}
            <Link to={`/project/${encodeURIComponent(projectId)}/trials`}>Trials</Link>
          </Typography.Paragraph>
        </div>
        <Space>
          <Select<RepoSortField>
            aria-label="Sort repos by"
            value={sortField}
            style={{ width: 160 }}
            onChange={(field) => {
              setSortField(field);
              setSort(
                field === 'CREATED'
                  ? { columnKey: 'created', order: 'descend' }
                  : { columnKey: 'name', order: 'ascend' },
              );
            }}
            options={[
              { value: 'NAME', label: 'Sort: name' },
              { value: 'PROJECT_REPO', label: 'Sort: project/repo' },
              { value: 'CREATED', label: 'Sort: created' },
            ]}
          />
          <ProjectRolesButton project={projectId} />
          <PermissionGate resource={projectResource(projectId)} permission="PROJECT_CREATE_REPO">
            {(allowed, reason) => (
              <Button
                type="primary"
                data-testid={testIds.createRepoButton}
                disabled={!allowed}
                title={reason}
                onClick={() => setCreating(true)}
              >
                Create repo
              </Button>
            )}
          </PermissionGate>
        </Space>
      </Flex>
      <Table<RepoInfo>
        rowKey={(info) => info.repo.name}
        loading={repos.isPending}
        columns={columns}
        dataSource={repos.data ?? []}
        pagination={
          paged
            ? {
                pageSize: REPO_PAGE_SIZE,
                current: pageIndex + 1,
                // Until the count arrives, a full page means there may be another.
                total:
                  total ??
                  pageIndex * REPO_PAGE_SIZE +
                    (page.data?.length ?? 0) +
                    (page.data?.length === REPO_PAGE_SIZE ? 1 : 0),
                showSizeChanger: false,
                hideOnSinglePage: true,
              }
            : { pageSize: REPO_PAGE_SIZE, showSizeChanger: false, hideOnSinglePage: true }
        }
        onChange={(pagination, __, sorter) => {
          if (paged) setPageIndex((pagination.current ?? 1) - 1);
          const single = Array.isArray(sorter) ? sorter[0] : sorter;
          const key = String(single?.columnKey ?? 'name');
          setSort({ columnKey: key, order: single?.order ?? null });
          if (key === 'created') setSortField('CREATED');
          else if (key === 'name' && sortField === 'CREATED') setSortField('NAME');
        }}
        onRow={() => ({ 'data-testid': testIds.repoRow }) as HTMLAttributes<HTMLElement>}
        locale={{
          emptyText: (
            <EmptyState
              data-testid={testIds.emptyState}
              title="No repositories yet"
              hint="A repository holds versioned data: create one, then upload files into it."
              action={
                <Button type="primary" onClick={() => setCreating(true)}>
                  Create repo
                </Button>
              }
            />
          ),
        }}
      />
      {creating ? <CreateRepoModal project={projectId} onClose={() => setCreating(false)} /> : null}
      {labelling ? (
        <EditLabelsModal
          project={projectId}
          repo={labelling.repo.name}
          labels={labelling.metadata ?? {}}
          onClose={() => setLabelling(null)}
        />
      ) : null}
      {panel ? <RepoPanel project={projectId} info={panel} onClose={() => setPanel(null)} /> : null}
      <ConfirmModal
        open={deleting !== null}
        title="Delete repo"
        text={`Delete repo ${deleting ?? ''} and every commit in it?`}
        confirmText="Delete"
        confirmLoading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const name = deleting ?? '';
          remove.mutate(name, {
            onSuccess: () => toast({ content: `Repo ${name} deleted` }),
            onError: (error) => toast({ type: 'error', content: error.message }),
            onSettled: () => setDeleting(null),
          });
        }}
      />
    </Screen>
  );
}
