import { Alert, Drawer, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo, useState, type HTMLAttributes } from 'react';
import { Link, useParams } from 'react-router';
import type { JobInfo } from '@ivory/api';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { paths } from '../pipelines/paths.ts';
import { elapsedSeconds, formatDuration, JobStateTag } from '../pipelines/states.tsx';
import { JOB_PAGE_SIZE, useJobPage } from './api.ts';
import { JobDetail } from './JobDetail.tsx';
import { Screen } from '../../ui/Screen/index.ts';
import { NoWrap } from '../../ui/NoWrap/index.ts';

const jobKey = (job: JobInfo) => `${job.job.pipeline?.name}/${job.job.id}`;

export function jobColumns(project: string, open: (job: JobInfo) => void): ColumnsType<JobInfo> {
  return [
    {
      title: 'Job',
      key: 'id',
      render: (_, job) => (
        <Typography.Link onClick={() => open(job)} code>
          <NoWrap>{job.job.id.slice(0, 12)}</NoWrap>
        </Typography.Link>
      ),
    },
    {
      title: 'Pipeline',
      key: 'pipeline',
      render: (_, job) => (
        <Link to={paths.lineagePipeline(project, job.job.pipeline?.name ?? '')}>
          {job.job.pipeline?.name}
        </Link>
      ),
    },
    { title: 'State', key: 'state', render: (_, job) => <JobStateTag state={job.state} /> },
    {
      title: 'Created',
      key: 'created',
      render: (_, job) => <NoWrap>{formatTimestamp(job.created)}</NoWrap>,
    },
    {
      title: 'Runtime',
      key: 'runtime',
      render: (_, job) => formatDuration(elapsedSeconds(job.started, job.finished)),
    },
    {
      title: 'Datums',
      key: 'datums',
      render: (_, job) =>
        `${job.dataProcessed}/${job.dataTotal}` +
        (Number(job.dataSkipped) ? ` · ${job.dataSkipped} skipped` : '') +
        (Number(job.dataFailed) ? ` · ${job.dataFailed} failed` : ''),
    },
    {
      title: '',
      key: 'logs',
      render: (_, job) => (
        <Link to={paths.jobLogs(project, job.job.pipeline?.name ?? '', job.job.id)}>Logs</Link>
      ),
    },
  ];
}

/** The project's newest jobs as a table; a job opens its detail (state, timings, stop). */
export function JobsTable({ project }: { project: string }) {
  // markers[i] is where page i starts: '' for the newest, else the previous page's last `created`.
  const [markers, setMarkers] = useState<string[]>(['']);
  const [pageIndex, setPageIndex] = useState(0);
  const jobs = useJobPage(project, markers[pageIndex] ?? '');
  const [selected, setSelected] = useState<string | null>(null);
  const full = jobs.data?.length === JOB_PAGE_SIZE;
  const last = jobs.data?.at(-1)?.created ?? '';
  const selectedJob = useMemo(
    () => jobs.data?.find((job) => jobKey(job) === selected),
    [jobs.data, selected],
  );
  return (
    <>
      {jobs.error ? <Alert type="error" message={jobs.error.message} /> : null}
      <Table<JobInfo>
        rowKey={jobKey}
        size="small"
        pagination={{
          pageSize: JOB_PAGE_SIZE,
          current: pageIndex + 1,
          // Pages are known up to this one, plus a next one while this page is full.
          total: pageIndex * JOB_PAGE_SIZE + (jobs.data?.length ?? 0) + (full && last ? 1 : 0),
          showSizeChanger: false,
          hideOnSinglePage: true,
          onChange: (page) => {
            const next = page - 1;
            if (next === pageIndex + 1 && last)
              setMarkers((known) => [...known.slice(0, next), last]);
            if (next <= pageIndex + 1) setPageIndex(next);
          },
        }}
        columns={jobColumns(project, (job) => setSelected(jobKey(job)))}
        dataSource={jobs.data ?? []}
        loading={jobs.isPending && !jobs.error}
        onRow={() => ({ 'data-testid': testIds.jobRow }) as HTMLAttributes<HTMLElement>}
        locale={{ emptyText: 'No jobs yet' }}
      />
      {selectedJob ? (
        <Drawer open width={640} title="Job" onClose={() => setSelected(null)}>
          <JobDetail info={selectedJob} />
        </Drawer>
      ) : null}
    </>
  );
}

/** The project's newest jobs; a job opens its detail (state, timings, counters, stop). */
export function JobsScreen() {
  const projectId = useParams().projectId ?? '';
  return (
    <Screen>
      <Typography.Title level={2}>Jobs</Typography.Title>
      <Typography.Paragraph>
        <Link to={paths.subJobs(projectId)}>By global ID (sub-jobs)</Link>
      </Typography.Paragraph>
      <JobsTable project={projectId} />
    </Screen>
  );
}
