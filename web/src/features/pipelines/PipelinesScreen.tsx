import { Alert, Button, Drawer, Flex, Table, Typography } from 'antd';
import type { ColumnsType, SortOrder } from 'antd/es/table/interface';
import { useState, type HTMLAttributes } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import type { PipelineInfo } from '@ivory/api';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { EmptyState } from '../../ui/EmptyState/index.ts';
import { Tabs } from '../../ui/Tabs/index.ts';
import { JobsTable } from '../jobs/JobsScreen.tsx';
import { pipelineCount, usePipelinesSummary } from '../projects/api.ts';
import { PIPELINE_PAGE_SIZE, pipelineType, usePipelinePage, usePipelines } from './api.ts';
import { isPipelinesTab, paths, PIPELINES_TABS } from './paths.ts';
import { PipelinePanel } from './PipelinePanel.tsx';
import { JobStateTag, PipelineStateTag } from './states.tsx';
import { Screen } from '../../ui/Screen/index.ts';
import { NoWrap } from '../../ui/NoWrap/index.ts';

const createdAt = (info: PipelineInfo) => Date.parse(info.details?.createdAt ?? '') || 0;

/**
 * The project's pipelines. Its tab is in the URL (`/pipelines` or `/pipelines/list`, and
 * `/pipelines/jobs`); an unknown tab redirects to the list.
 */
export function PipelinesScreen() {
  const params = useParams();
  const projectId = params.projectId ?? '';
  const tab = params.tabId ?? 'list';
  const navigate = useNavigate();
  if (!isPipelinesTab(tab)) return <Navigate to={paths.pipelines(projectId)} replace />;

  return (
    <Screen>
      <Flex justify="space-between" align="center">
        <Typography.Title level={2}>Pipelines</Typography.Title>
        <Button
          type="primary"
          data-testid={testIds.createPipelineButton}
          onClick={() => navigate(paths.editor(projectId, 'create'))}
        >
          Create pipeline
        </Button>
      </Flex>
      <Tabs
        tabs={[...PIPELINES_TABS]}
        selectedId={tab}
        onSelect={(id) => {
          if (id !== tab && isPipelinesTab(id)) navigate(paths.pipelines(projectId, id));
        }}
        aria-label="Pipelines view"
      >
        {tab === 'jobs' ? (
          <JobsTable project={projectId} />
        ) : (
          <PipelinesTable project={projectId} />
        )}
      </Tabs>
    </Screen>
  );
}

/**
 * The pipelines table: state, last job, type, version, created; a row opens its panel. Unsorted,
 * it shows the platform's pages, the most recently changed pipelines first, each page one
 * ListPipeline call that carries every row's state and last job; sorting by name or creation
 * needs every pipeline, so only then is the whole list fetched and sorted here.
 */
function PipelinesTable({ project: projectId }: { project: string }) {
  const [sort, setSort] = useState<{ columnKey: string; order: SortOrder }>({
    columnKey: 'name',
    order: null,
  });
  const [pageIndex, setPageIndex] = useState(0);
  const paged = !sort.order;
  const page = usePipelinePage(projectId, pageIndex, paged);
  const all = usePipelines(projectId, { enabled: !paged });
  const pipelines = paged ? page : all;
  // The header's PipelinesSummary (same query): the project's pipeline count, for the pager.
  const summary = usePipelinesSummary([projectId]);
  const mine = summary.data?.find((s) => s.project.name === projectId);
  const total = mine ? pipelineCount(mine) : undefined;
  const navigate = useNavigate();
  const [selected, setSelected] = useState<string | null>(null);
  const [tab, setTab] = useState('info');
  const orderOf = (key: string) => (sort.columnKey === key ? sort.order : null);

  const columns: ColumnsType<PipelineInfo> = [
    {
      title: 'Name',
      key: 'name',
      sorter: (a, b) => a.pipeline.name.localeCompare(b.pipeline.name),
      sortOrder: orderOf('name'),
      render: (_, info) => (
        <Link to={paths.lineagePipeline(projectId, info.pipeline.name)}>{info.pipeline.name}</Link>
      ),
    },
    { title: 'State', key: 'state', render: (_, info) => <PipelineStateTag state={info.state} /> },
    {
      title: 'Last job',
      key: 'lastJob',
      render: (_, info) => <JobStateTag state={info.lastJobState} />,
    },
    { title: 'Type', key: 'type', render: (_, info) => pipelineType(info) },
    { title: 'Version', key: 'version', render: (_, info) => info.version },
    {
      title: 'Created',
      key: 'created',
      sorter: (a, b) => createdAt(a) - createdAt(b),
      sortOrder: orderOf('created'),
      render: (_, info) => <NoWrap>{formatTimestamp(info.details?.createdAt)}</NoWrap>,
    },
    {
      title: '',
      key: 'open',
      render: (_, info) => (
        <Button size="small" onClick={() => setSelected(info.pipeline.name)}>
          Details
        </Button>
      ),
    },
  ];

  return (
    <>
      {pipelines.error ? <Alert type="error" message={pipelines.error.message} /> : null}
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {total !== undefined ? `${total} pipelines · ` : ''}
        {paged ? 'most recently changed first' : 'sorted by the column'}
      </Typography.Paragraph>
      <Table<PipelineInfo>
        rowKey={(info) => info.pipeline.name}
        columns={columns}
        dataSource={pipelines.data ?? []}
        loading={pipelines.isPending && !pipelines.error}
        pagination={
          paged
            ? {
                pageSize: PIPELINE_PAGE_SIZE,
                current: pageIndex + 1,
                // Until the count arrives, a full page means there may be another.
                total:
                  total ??
                  pageIndex * PIPELINE_PAGE_SIZE +
                    (page.data?.length ?? 0) +
                    (page.data?.length === PIPELINE_PAGE_SIZE ? 1 : 0),
                showSizeChanger: false,
                hideOnSinglePage: true,
              }
            : {
                pageSize: PIPELINE_PAGE_SIZE,
                current: pageIndex + 1,
                showSizeChanger: false,
                hideOnSinglePage: true,
              }
        }
        onChange={(pagination, _filters, sorter) => {
          const single = Array.isArray(sorter) ? sorter[0] : sorter;
          const next = {
            columnKey: String(single?.columnKey ?? 'name'),
            order: single?.order ?? null,
          };
          // A new order starts at its first page.
          const resorted =
            next.order !== sort.order || (next.order && next.columnKey !== sort.columnKey);
          setPageIndex(resorted ? 0 : (pagination.current ?? 1) - 1);
          setSort(next);
        }}
        size="small"
        onRow={(info) =>
          ({
            'data-testid': testIds.pipelineRow,
            onDoubleClick: () => setSelected(info.pipeline.name),
          }) as HTMLAttributes<HTMLElement>
        }
        locale={{
          emptyText: (
            <EmptyState
              data-testid={testIds.emptyState}
              title="No pipelines yet"
              hint="A pipeline runs your code on a repo's data and writes its output to a repo of its own."
              action={
                <Button type="primary" onClick={() => navigate(paths.editor(projectId, 'create'))}>
                  Create pipeline
                </Button>
              }
            />
          ),
        }}
      />
      {selected ? (
        <Drawer open width={560} title={selected} onClose={() => setSelected(null)}>
          <PipelinePanel
            project={projectId}
            pipeline={selected}
            tab={tab}
            onTab={setTab}
            onDeleted={() => setSelected(null)}
          />
        </Drawer>
      ) : null}
    </>
  );
}
