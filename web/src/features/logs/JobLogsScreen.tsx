import { Alert, Col, Row, Typography } from 'antd';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { JobDetail } from '../jobs/JobDetail.tsx';
import { paths, type ViewBase } from '../pipelines/paths.ts';
import { JobDatums, JobLogsPane, JobStatusBanner, RestartDatumsConfirm } from './JobLogsParts.tsx';
import { jobLogsBase, useJobLogs } from './useJobLogs.ts';
import { Screen } from '../../ui/Screen/index.ts';

export { jobLogsBase } from './useJobLogs.ts';

/**
 * A job's datums (failed first), a datum's detail, and the job's or datum's logs, live, as a page
 * of the project view. Under the lineage the same opens as a full-page panel over the graph
 * (JobLogsPanel).
 */
export function JobLogsScreen() {
  const params = useParams();
  const target = {
    project: params.projectId ?? '',
    pipeline: params.pipelineId ?? '',
    jobId: params.jobId ?? '',
    datumId: params.datumId ?? '',
  };
  const { project, pipeline, jobId, datumId } = target;
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const base: ViewBase = pathname.startsWith('/lineage/') ? 'lineage' : 'project';
  const state = useJobLogs(target);
  const { job } = state;
  const logsBase = jobLogsBase(pathname);

  return (
    <Screen>
      <Typography.Title level={2}>Job Logs</Typography.Title>
      <Typography.Paragraph>
        <Link
          to={
            base === 'lineage' ? paths.lineagePipeline(project, pipeline) : paths.pipelines(project)
          }
        >
          {pipeline}
        </Link>{' '}
        / job <Typography.Text code>{jobId}</Typography.Text>
        {datumId ? (
          <>
            {' '}
            / <Link to={logsBase}>all datums</Link> / datum{' '}
            <Typography.Text code>{datumId.slice(0, 12)}</Typography.Text>
          </>
        ) : null}
      </Typography.Paragraph>
      <JobStatusBanner info={job.data} />
      {job.error ? <Alert type="error" message={job.error.message} /> : null}
      {job.data ? <JobDetail info={job.data} base={base} /> : null}
      <Row gutter={16} style={{ marginTop: 16 }}>
        <Col xs={24} lg={8}>
          <JobDatums
            state={state}
            target={target}
            linkTo={(id) => `${logsBase}/datum/${encodeURIComponent(id)}`}
          />
        </Col>
        <Col xs={24} lg={16}>
          <JobLogsPane state={state} target={target} />
        </Col>
      </Row>
      <RestartDatumsConfirm
        state={state}
        target={target}
        onRestarted={() =>
          navigate(
            base === 'lineage'
              ? paths.lineagePipeline(project, pipeline, 'jobs')
              : paths.jobs(project),
          )
        }
      />
    </Screen>
  );
}
