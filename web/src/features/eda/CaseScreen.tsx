import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Descriptions,
  Form,
  Input,
  List,
  Select,
  Table,
  Tag,
  Typography,
  message,
} from 'antd';
import type { HTMLAttributes } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, createBranch, editMetadata, repoMessage, type ApiClient } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { paths } from '../pipelines/paths.ts';
import { stateLabel } from '../pipelines/states.tsx';
import {
  EDA_PROJECT,
  commitPath,
  edaKeys,
  flowsOf,
  useBolts,
  caseRunIds,
  useCaseResults,
  useCaseTrials,
  useCases,
  useSnapshotRunIds,
  useJobs,
  usePipelines,
  type Case,
  type JobSummary,
} from './api.ts';
import { CASE_CONFIG_LABELS, LABELS, splitList } from './labels.ts';
import { edaTestIds } from './test-ids.ts';
import { Screen } from '../../ui/Screen/index.ts';
import { CaseResultFiles, CaseTrials } from './CaseRuns.tsx';

type CaseForm = { name: string; bolt: string } & Partial<Record<string, string>>;

/** A case: a branch of its bolt, pinned at the bolt's head, carrying the labels as metadata. */
export async function createCase(client: ApiClient, values: CaseForm, headCommitId?: string) {
  const labels: Record<string, string> = { [LABELS.case]: values.name, [LABELS.rtl]: values.bolt };
  for (const key of CASE_CONFIG_LABELS) {
    const value = values[key]?.trim();
    if (value && key !== LABELS.rtl) labels[key] = value;
  }
  await createBranch(client, {
    project: EDA_PROJECT,
    repo: values.bolt,
    branch: values.name,
    headCommitId,
  });
  await editMetadata(client, {
    edits: [
      {
        branch: {
          name: {
            repo: { name: repoMessage({ project: EDA_PROJECT, repo: values.bolt }) },
            name: values.name,
          },
        },
        replace: { replacement: labels },
      },
    ],
  });
}

function CreateCaseForm() {
  const client = useApi();
  const bolts = useBolts();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CaseForm>();
  const [messageApi, holder] = message.useMessage();
  const create = useMutation({
    mutationFn: (values: CaseForm) =>
      createCase(
        client,
        values,
        bolts.data?.find((bolt) => bolt.name === values.bolt)?.head?.commit.id,
      ),
    onSuccess: () => {
      form.resetFields();
      void queryClient.invalidateQueries({ queryKey: edaKeys.all });
    },
    onError: (error) => void messageApi.error(error.message),
  });
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={(values) => create.mutate(values)}
      style={{ maxWidth: 640 }}
    >
      {holder}
      <Typography.Title level={3}>New case</Typography.Title>
      <Form.Item
        name="name"
        label="Case"
        rules={[
          { required: true, message: 'A case name is required' },
          { pattern: /^[a-zA-Z0-9_-]+$/, message: 'Letters, digits, "_" and "-" only' },
        ]}
      >
        <Input />
      </Form.Item>
      <Form.Item
        name="bolt"
        label="Bolt (rtl)"
        rules={[{ required: true, message: 'Pick a bolt' }]}
      >
        <Select
          loading={bolts.isPending}
          options={(bolts.data ?? []).map((bolt) => ({ value: bolt.name, label: bolt.name }))}
        />
      </Form.Item>
      {CASE_CONFIG_LABELS.filter((key) => key !== LABELS.rtl).map((key) => (
        <Form.Item key={key} name={key} label={key}>
          <Input />
        </Form.Item>
      ))}
      <Button type="primary" htmlType="submit" loading={create.isPending}>
        Create case
      </Button>
    </Form>
  );
}

function CaseList({ cases, loading }: { cases: Case[]; loading: boolean }) {
  return (
    <List
      bordered
      loading={loading}
      dataSource={cases}
      locale={{ emptyText: 'No cases yet.' }}
      renderItem={(item) => (
        <List.Item data-testid={testIds.edaCaseRow}>
          <Link to={`/case/${encodeURIComponent(item.name)}`}>{item.name}</Link>
          <Tag>{item.bolt}</Tag>
        </List.Item>
      )}
    />
  );
}

/** /case/:name? — a case's configuration, its runs across flows and its result files. */
export function CaseScreen() {
  const { name = '' } = useParams();
  const cases = useCases();
  const pipelines = usePipelines();
  const jobs = useJobs();
  const results = useCaseResults(name);
  const trials = useCaseTrials(name);
  const current = cases.data?.find((entry) => entry.name === name);
  const snapshotRuns = useSnapshotRunIds(current?.bolt ?? '', current?.headCommitId ?? null);
  if (cases.error) throw cases.error;

  if (!name) {
    return (
      <Screen>
        <Typography.Title level={2}>Cases</Typography.Title>
        <CaseList cases={cases.data ?? []} loading={cases.isPending} />
        <div style={{ marginTop: 24 }}>
          <CreateCaseForm />
        </div>
      </Screen>
    );
  }

  const item = cases.data?.find((entry) => entry.name === name);
  if (cases.isSuccess && !item) throw new ApiError(5, `case ${name} not found`);
  const caseFlows = new Set(splitList(item?.labels[LABELS.flow]));
  const pipelinesOfCase = new Set(
    flowsOf(pipelines.data?.items ?? [])
      .filter((flow) => caseFlows.size === 0 || caseFlows.has(flow.name))
      .flatMap((flow) => flow.stages.map((stage) => stage.pipeline)),
  );
  // Only this case's runs: its trials' and those on its RTL snapshot — not every run of its flows.
  const runIds = caseRunIds(trials.data ?? [], snapshotRuns.data ?? []);
  const runs = (jobs.data?.items ?? []).filter(
    (job) => pipelinesOfCase.has(job.job.pipeline.name) && runIds.has(job.job.id),
  );
  const latest = (trials.data ?? []).find((trial) => trial.finished);

  return (
    <Screen>
      <Typography.Title level={2}>Case</Typography.Title>
      <Typography.Title level={3}>{name}</Typography.Title>
      <Link to={`/project/${EDA_PROJECT}/trials?case=${encodeURIComponent(name)}`}>
        Trials of this case
      </Link>
      {item && (
        <>
          <Descriptions
            bordered
            size="small"
            // One column on phone-sized windows: pairs side by side would wrap letter by letter.
            column={{ xs: 1, sm: 2, md: 2, lg: 2, xl: 2, xxl: 2 }}
            title="Configuration"
            style={{ marginTop: 16 }}
          >
            {CASE_CONFIG_LABELS.map((key) => (
              <Descriptions.Item key={key} label={key}>
                {key === LABELS.flow
                  ? splitList(item.labels[key]).map((flow) => (
                      <Link
                        key={flow}
                        to={`/flow/${encodeURIComponent(flow)}`}
                        style={{ marginRight: 8 }}
                      >
                        {flow}
                      </Link>
                    ))
                  : (item.labels[key] ?? '')}
              </Descriptions.Item>
            ))}
          </Descriptions>
          <Typography.Paragraph style={{ marginTop: 12 }}>
            RTL snapshot:{' '}
            {item.headCommitId ? (
              <Link to={commitPath(item.bolt, item.headCommitId)}>
                {item.bolt}@{item.headCommitId.slice(0, 8)}
              </Link>
            ) : (
              `${item.bolt} (no upload yet)`
            )}
          </Typography.Paragraph>
        </>
      )}
      <Typography.Title level={4}>Trials of this case</Typography.Title>
      <CaseTrials trials={trials.data ?? []} loading={trials.isPending} />
      <Typography.Title level={4}>Jobs of its runs</Typography.Title>
      <Table<JobSummary>
        rowKey={(job) => `${job.job.pipeline.name}/${job.job.id}`}
        loading={jobs.isPending}
        dataSource={runs}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        onRow={(job) =>
          ({
            'data-testid': edaTestIds.caseRun,
            'data-state': job.state ?? '',
          }) as HTMLAttributes<HTMLElement>
        }
        locale={{
          emptyText:
            jobs.data?.available === false
              ? 'The pipeline engine is not available yet: runs appear here once it is.'
              : 'No runs yet.',
        }}
        columns={[
          {
            title: 'Job',
            render: (_v, job) => (
              <Link to={paths.jobLogs(EDA_PROJECT, job.job.pipeline.name, job.job.id)}>
                {job.job.id.slice(0, 12)}
              </Link>
            ),
          },
          { title: 'Pipeline', render: (_v, job) => job.job.pipeline.name },
          { title: 'State', render: (_v, job) => <Tag>{stateLabel(job.state)}</Tag> },
          { title: 'Created', render: (_v, job) => formatTimestamp(job.created ?? null) },
        ]}
      />
      <Typography.Title level={4}>Result files</Typography.Title>
      <CaseResultFiles latest={latest} results={results.data ?? []} loading={results.isPending} />
    </Screen>
  );
}
