import { Typography } from 'antd';
import { Link, useLocation, useParams } from 'react-router';
import { paths } from '../pipelines/paths.ts';
import { LogViewer } from './LogViewer.tsx';
import { useLogStream } from './useLogStream.ts';
import { Screen } from '../../ui/Screen/index.ts';

/** Every log line of a pipeline (all its jobs), followed live. */
export function PipelineLogsScreen() {
  const params = useParams();
  const project = params.projectId ?? '';
  const pipeline = params.pipelineId ?? '';
  const lineage = useLocation().pathname.startsWith('/lineage/');
  const logs = useLogStream({ project, pipeline, follow: true });
  return (
    <Screen>
      <Typography.Title level={2}>Pipeline Logs</Typography.Title>
      <Typography.Paragraph>
        <Link to={lineage ? paths.lineagePipeline(project, pipeline) : paths.pipelines(project)}>
          {pipeline}
        </Link>
      </Typography.Paragraph>
      <LogViewer
        rows={logs.rows}
        indexShift={logs.indexShift}
        version={logs.version}
        status={logs.status}
        error={logs.error}
        fileName={`${pipeline}.log`}
        height="calc(100vh - 260px)"
      />
    </Screen>
  );
}
