import { Alert, Card, Drawer, Empty, Flex, Spin, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { JobInfo, JobSetInfo } from '@ivory/api';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { paths } from '../pipelines/paths.ts';
import { jobTone, StateTag } from '../pipelines/states.tsx';
import { useJobSets } from './api.ts';
import { JobDetail } from './JobDetail.tsx';
import { jobColumns } from './JobsScreen.tsx';
import { Screen } from '../../ui/Screen/index.ts';

/** A job set's overall state: failed if any job failed, running while any runs. */
export function jobSetState(jobs: readonly JobInfo[]) {
  const tones = jobs.map((job) => jobTone(job.state));
  if (tones.includes('error')) return 'JOB_FAILURE';
  if (tones.includes('running')) return 'JOB_RUNNING';
  if (tones.length > 0 && tones.every((t) => t === 'success')) return 'JOB_SUCCESS';
  return 'JOB_STATE_UNKNOWN';
}

function JobSetCard({
  project,
  set,
  open,
}: {
  project: string;
  set: JobSetInfo;
  open: (job: JobInfo) => void;
}) {
  const state = jobSetState(set.jobs);
  const created = set.jobs
    .map((j) => j.created)
    .filter(Boolean)
    .sort()[0];
  return (
    <Card
      size="small"
      data-testid={testIds.jobSetRow}
      title={
        <Flex gap={8} align="center">
          <Typography.Text code>{set.jobSet.id}</Typography.Text>
          <StateTag state={state} tone={jobTone(state)} />
          <Typography.Text type="secondary">{formatTimestamp(created)}</Typography.Text>
        </Flex>
      }
      extra={
        <Link to={`${paths.lineage(project)}?globalId=${encodeURIComponent(set.jobSet.id)}`}>
          Show in lineage
        </Link>
      }
    >
      <Table<JobInfo>
        size="small"
        rowKey={(job) => `${job.job.pipeline?.name}/${job.job.id}`}
        pagination={false}
        columns={jobColumns(project, open)}
        dataSource={set.jobs}
      />
    </Card>
  );
}

/** Job sets (one per global ID) with the jobs each ran across the project's pipelines. */
export function SubJobsScreen() {
  const projectId = useParams().projectId ?? '';
  const sets = useJobSets(projectId);
  const [selected, setSelected] = useState<{ pipeline: string; id: string } | null>(null);
  const selectedJob = useMemo(() => {
    if (!selected) return undefined;
    for (const set of sets.data ?? [])
      for (const job of set.jobs)
        if (job.job.id === selected.id && job.job.pipeline?.name === selected.pipeline) return job;
    return undefined;
  }, [sets.data, selected]);
  return (
    <Screen>
      <Typography.Title level={2}>Sub-jobs</Typography.Title>
      {sets.error ? <Alert type="error" message={sets.error.message} /> : null}
      {sets.isPending && !sets.error ? <Spin /> : null}
      {sets.data && sets.data.length === 0 ? <Empty description="No jobs yet" /> : null}
      <Flex vertical gap={12}>
        {(sets.data ?? []).map((set) => (
          <JobSetCard
            key={set.jobSet.id}
            project={projectId}
            set={set}
            open={(job) => setSelected({ pipeline: job.job.pipeline?.name ?? '', id: job.job.id })}
          />
        ))}
      </Flex>
      {selectedJob ? (
        <Drawer open width={640} title="Job" onClose={() => setSelected(null)}>
          <JobDetail info={selectedJob} />
        </Drawer>
      ) : null}
    </Screen>
  );
}
