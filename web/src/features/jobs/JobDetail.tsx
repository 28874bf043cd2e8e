import { Alert, Button, Descriptions, Flex, Typography } from 'antd';
import { Link } from 'react-router';
import type { JobInfo } from '@ivory/api';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { useToast } from '../../ui/Toast/index.ts';
import { paths, type ViewBase } from '../pipelines/paths.ts';
import {
  durationSeconds,
  elapsedSeconds,
  formatDuration,
  JobStateTag,
} from '../pipelines/states.tsx';
import { isJobDone, useStopJob } from './api.ts';

/** A job's state, timings, datum counters and stats, with Stop while it runs. */
export function JobDetail({
  info,
  base = 'project',
  columns = 2,
}: {
  info: JobInfo;
  base?: ViewBase;
  /** Columns of the facts table: 2 on a page, 1 in a narrow panel. */
  columns?: number;
}) {
  const project = info.job.pipeline?.project?.name ?? '';
  const pipeline = info.job.pipeline?.name ?? '';
  const stop = useStopJob(project);
  const toast = useToast();
  const stats = info.stats;
  return (
    <div data-testid={testIds.jobDetail}>
      <Flex gap={8} align="center" style={{ marginBottom: 8 }}>
        <JobStateTag state={info.state} />
        <Typography.Text code>{info.job.id}</Typography.Text>
        {!isJobDone(info.state) ? (
          <Button
            size="small"
            danger
            loading={stop.isPending}
            onClick={() =>
              stop.mutate(
                { project, pipeline, jobId: info.job.id },
                {
                  onSuccess: () => toast({ content: 'Job stopped' }),
                  onError: (error) => toast({ content: error.message, type: 'error' }),
                },
              )
            }
          >
            Stop job
          </Button>
        ) : null}
        <Link to={paths.jobLogs(project, pipeline, info.job.id, undefined, base)}>
          Datums and logs
        </Link>
      </Flex>
      {info.reason ? (
        <Alert type="warning" message={info.reason} style={{ marginBottom: 8 }} />
      ) : null}
      <Descriptions
        size="small"
        // One column on phone-sized windows: pairs side by side would wrap letter by letter. (A
        // breakpoint left out would take antd's default count, so every one is named.)
        column={{ xs: 1, sm: columns, md: columns, lg: columns, xl: columns, xxl: columns }}
        bordered
        items={[
          { key: 'pipeline', label: 'Pipeline', children: `${pipeline} v${info.pipelineVersion}` },
          { key: 'created', label: 'Created', children: formatTimestamp(info.created) },
          { key: 'started', label: 'Started', children: formatTimestamp(info.started) },
          { key: 'finished', label: 'Finished', children: formatTimestamp(info.finished) },
          {
            key: 'runtime',
            label: 'Runtime',
            children: formatDuration(elapsedSeconds(info.started, info.finished)),
          },
          { key: 'restart', label: 'Restarts', children: info.restart || '0' },
          { key: 'total', label: 'Datums total', children: info.dataTotal || '0' },
          { key: 'processed', label: 'Processed', children: info.dataProcessed || '0' },
          { key: 'skipped', label: 'Skipped', children: info.dataSkipped || '0' },
          { key: 'failed', label: 'Failed', children: info.dataFailed || '0' },
          { key: 'recovered', label: 'Recovered', children: info.dataRecovered || '0' },
          {
            key: 'download',
            label: 'Download time',
            children: formatDuration(durationSeconds(stats?.downloadTime)),
          },
          {
            key: 'process',
            label: 'Process time',
            children: formatDuration(durationSeconds(stats?.processTime)),
          },
          {
            key: 'upload',
            label: 'Upload time',
            children: formatDuration(durationSeconds(stats?.uploadTime)),
          },
          {
            key: 'bytes',
            label: 'Bytes in / out',
            children: `${stats?.downloadBytes ?? '0'} / ${stats?.uploadBytes ?? '0'}`,
          },
        ]}
      />
    </div>
  );
}
