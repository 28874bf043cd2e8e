import {
  Alert,
  Button,
  Flex,
  Input,
  Select as AntSelect,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType, SortOrder as AntSortOrder } from 'antd/es/table/interface';
import { useEffect, useMemo, useRef, useState, type HTMLAttributes } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { Trial, TrialFilter } from '@ivory/api';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { EmptyState } from '../../ui/EmptyState/index.ts';
import { useToast } from '../../ui/Toast/index.ts';
import { useFlowPlugins, useProjectFlows, useTrialCount, useTrialPages } from './api.ts';
import { MAX_COMPARE, MIN_COMPARE } from './comparison.ts';
import { comparePath, trialPath } from './paths.ts';
import { CreateTrialModal, flowParameters } from './components/CreateTrialModal.tsx';
import { FilterBuilder } from './components/FilterBuilder.tsx';
import { TrialStateTag } from './components/TrialStateTag.tsx';
import {
  BASE_FILTER_FIELDS,
  columnValue,
  defaultColumns,
  discoveredFields,
  effectiveOrder,
  isFinished,
  searchFromView,
  shortTrialId,
  viewFromSearch,
  type TrialsView,
} from './trial-view.ts';
import { Screen } from '../../ui/Screen/index.ts';
import { NoWrap } from '../../ui/NoWrap/index.ts';

const toAnt = (order: 'ASC' | 'DESC'): AntSortOrder => (order === 'ASC' ? 'ascend' : 'descend');

/** Loads the next page when the sentinel scrolls into view (where IntersectionObserver exists). */
function useLoadOnVisible(onVisible: () => void, enabled: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;
  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) callback.current();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled]);
  return ref;
}

/**
 * /project/:projectId/trials — the project's trials (optionally of one flow / case): a filter
 * builder, server-side sorting, chosen parameter / metric columns, the count, paging by
 * pageToken, row selection for the compare view. The whole view lives in the URL query.
 */
export function TrialsScreen() {
  const { projectId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const toast = useToast();
  const view = useMemo(() => viewFromSearch(search), [search]);
  const pages = useTrialPages(projectId, view);
  const trials = useMemo(() => pages.data?.pages.flat() ?? [], [pages.data]);
  const unfinished = trials.some((trial) => !isFinished(trial));
  const count = useTrialCount(projectId, view, unfinished);
  const flows = useProjectFlows(projectId);
  const [creating, setCreating] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);

  const viewFlows = useMemo(
    () => (view.flow ? [view.flow] : [...new Set(trials.map((trial) => trial.flow))].slice(0, 5)),
    [view.flow, trials],
  );
  const plugins = useFlowPlugins(projectId, viewFlows);
  const pluginParameters = plugins.flatMap((plugin) =>
    flowParameters(plugin.data).map((parameter) => parameter.name),
  );
  const fields = discoveredFields(trials, pluginParameters);
  const chosenColumns = view.columns ?? defaultColumns(fields);
  const columnChoices = [
    ...new Set([...fields.params, ...fields.metrics, ...fields.labels, ...chosenColumns]),
  ];

  const update = (patch: Partial<TrialsView>) => setSearch(searchFromView({ ...view, ...patch }));
  const primary = effectiveOrder(view)[0];
  const sortOrderOf = (key: string) => (primary?.field === key ? toAnt(primary.order) : null);
  const loadMore = () => {
    if (pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  };
  const sentinel = useLoadOnVisible(loadMore, Boolean(pages.hasNextPage));

  const sortable = (key: string) => ({
    key,
    sorter: true,
    sortOrder: sortOrderOf(key),
    sortDirections: ['ascend', 'descend', 'ascend'] as AntSortOrder[],
  });
  const columns: ColumnsType<Trial> = [
    {
      title: 'Trial',
      ...sortable('id'),
      render: (_, trial) => (
        <Link to={trialPath(projectId, trial.id)} title={trial.id}>
          <code>{shortTrialId(trial.id)}</code>
        </Link>
      ),
    },
    { title: 'State', ...sortable('state'), render: (_, trial) => <TrialStateTag trial={trial} /> },
    { title: 'Flow', ...sortable('flow'), render: (_, trial) => trial.flow },
    { title: 'Case', ...sortable('case'), render: (_, trial) => trial.case || '-' },
    ...chosenColumns.map((column) => ({
      title: column,
      ...sortable(column),
      render: (_: unknown, trial: Trial) => columnValue(trial, column) || '-',
    })),
    { title: 'Author', ...sortable('author'), render: (_, trial) => trial.author || '-' },
    {
      title: 'Created',
      ...sortable('created'),
      render: (_, trial) => <NoWrap>{formatTimestamp(trial.created)}</NoWrap>,
    },
    {
      title: 'Finished',
      ...sortable('finished'),
      render: (_, trial) => <NoWrap>{formatTimestamp(trial.finished)}</NoWrap>,
    },
    { title: 'Description', key: 'description', render: (_, trial) => trial.description },
  ];

  const compare = () => void navigate(comparePath(projectId, selected));

  return (
    <Screen>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <div>
          <Typography.Title level={2} style={{ marginBottom: 0 }}>
            Trials
          </Typography.Title>
          <Typography.Paragraph type="secondary">
            Project: <Link to={`/project/${encodeURIComponent(projectId)}`}>{projectId}</Link>
            {' · '}
            <span data-testid={testIds.trialsCount}>
              {count.data === undefined
                ? 'counting…'
                : `${count.data} ${count.data === 1 ? 'trial' : 'trials'}`}
            </span>
          </Typography.Paragraph>
        </div>
        <Space wrap>
          <Button
            data-testid={testIds.trialsCompare}
            disabled={selected.length < MIN_COMPARE || selected.length > MAX_COMPARE}
            onClick={compare}
          >
            Compare ({selected.length})
          </Button>
          <Button
            type="primary"
            data-testid={testIds.trialCreate}
            onClick={() => setCreating(true)}
          >
            New trial
          </Button>
        </Space>
      </Flex>
      <Space wrap style={{ marginBottom: 8 }}>
        <AntSelect
          aria-label="Flow"
          placeholder="Any flow"
          allowClear
          style={{ width: 200 }}
          value={view.flow || undefined}
          loading={flows.isPending}
          options={[...new Set([...(flows.data ?? []), ...(view.flow ? [view.flow] : [])])].map(
            (name) => ({ value: name, label: `flow: ${name}` }),
          )}
          onChange={(flow?: string) => update({ flow: flow ?? '' })}
        />
        <Input.Search
          aria-label="Case"
          placeholder="Any case"
          allowClear
          defaultValue={view.case}
          key={view.case}
          style={{ width: 200 }}
          onSearch={(value) => update({ case: value.trim() })}
        />
        {view.case ? (
          <Tag closable onClose={() => update({ case: '' })}>
            case: {view.case}
          </Tag>
        ) : null}
        <AntSelect
          mode="multiple"
          aria-label="Columns"
          data-testid={testIds.trialsColumnChooser}
          placeholder="Parameter / metric columns"
          style={{ minWidth: 320 }}
          value={chosenColumns}
          options={columnChoices.map((name) => ({ value: name, label: name }))}
          onChange={(columns: string[]) => update({ columns })}
          maxTagCount="responsive"
        />
      </Space>
      <FilterBuilder
        key={view.filters.map((filter) => JSON.stringify(filter)).join('|')}
        filters={view.filters}
        fields={[...BASE_FILTER_FIELDS, ...fields.params, ...fields.labels, ...fields.metrics]}
        onApply={(filters: TrialFilter[]) => {
          setSelected([]);
          update({ filters });
        }}
      />
      {pages.isError ? <Alert type="error" message={pages.error.message} showIcon /> : null}
      {count.isError ? <Alert type="error" message={count.error.message} showIcon /> : null}
      <Table<Trial>
        data-testid={testIds.trialsTable}
        rowKey={(trial) => trial.id}
        size="small"
        loading={pages.isPending}
        columns={columns}
        dataSource={trials}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: pages.isPending ? (
            'Loading…'
          ) : view.filters.length > 0 ? (
            <EmptyState
              data-testid={testIds.emptyState}
              title="No trials match"
              hint="No trial of this flow passes the filters: change or remove them."
            />
          ) : (
            <EmptyState
              data-testid={testIds.emptyState}
              title="No trials yet"
              hint="A trial runs a flow with one set of parameters; its metrics land here to compare."
              action={
                <Button type="primary" onClick={() => setCreating(true)}>
                  Create trial
                </Button>
              }
            />
          ),
        }}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys.map(String)),
          getCheckboxProps: (trial) => ({
            'aria-label': `Select trial ${trial.id}`,
            disabled: selected.length >= MAX_COMPARE && !selected.includes(trial.id),
          }),
          hideSelectAll: true,
        }}
        onChange={(_, __, sorter) => {
          const single = Array.isArray(sorter) ? sorter[0] : sorter;
          const field = String(single?.columnKey ?? '');
          const order = single?.order;
          update({
            orderBy: field && order ? [{ field, order: order === 'ascend' ? 'ASC' : 'DESC' }] : [],
          });
        }}
        onRow={(trial) =>
          ({
            'data-testid': testIds.trialRow,
            'data-trial-id': trial.id,
          }) as HTMLAttributes<HTMLElement>
        }
      />
      <div ref={sentinel} style={{ height: 1 }} />
      {pages.hasNextPage ? (
        <Button
          data-testid={testIds.trialsLoadMore}
          loading={pages.isFetchingNextPage}
          onClick={loadMore}
          style={{ marginTop: 8 }}
        >
          Load more
        </Button>
      ) : null}
      {creating ? (
        <CreateTrialModal
          project={projectId}
          initialFlow={view.flow}
          initialCase={view.case}
          onClose={() => setCreating(false)}
          onCreated={(trial) => {
            setCreating(false);
            // The toast renders outside the router: plain text, no <Link>.
            toast({ content: `Trial ${shortTrialId(trial.id)} created (${trial.state})` });
          }}
        />
      ) : null}
    </Screen>
  );
}
