import { Alert, Descriptions, List, Typography } from 'antd';
import type { DatumRef } from '@ivory/api';
import { formatBytes } from '../../format/bytes.ts';
import { testIds } from '../../test-ids.ts';
import { datumTone, durationSeconds, formatDuration, StateTag } from '../pipelines/states.tsx';
import { useDatum } from './api.ts';

/** A datum's state, input files, timings and sizes. */
export function DatumDetail({ datumRef, restarts }: { datumRef: DatumRef; restarts: string }) {
  const datum = useDatum(datumRef);
  if (datum.error) return <Alert type="error" message={datum.error.message} />;
  const info = datum.data;
  if (!info) return null;
  const stats = info.stats;
  return (
    <div data-testid={testIds.datumDetail}>
      <Descriptions
        size="small"
        column={3}
        bordered
        items={[
          {
            key: 'state',
            label: 'Datum',
            children: (
              <>
                <StateTag state={info.state} tone={datumTone(info.state)} />{' '}
                <Typography.Text code>{info.datum.id}</Typography.Text>
              </>
            ),
            span: 3,
          },
          {
            key: 'download',
            label: 'Download',
            children: formatDuration(durationSeconds(stats?.downloadTime)),
          },
          {
            key: 'process',
            label: 'Process',
            children: formatDuration(durationSeconds(stats?.processTime)),
          },
          {
            key: 'upload',
            label: 'Upload',
            children: formatDuration(durationSeconds(stats?.uploadTime)),
          },
          { key: 'in', label: 'Bytes in', children: formatBytes(stats?.downloadBytes ?? '0') },
          { key: 'out', label: 'Bytes out', children: formatBytes(stats?.uploadBytes ?? '0') },
          { key: 'restarts', label: 'Job restarts', children: restarts || '0' },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 8 }}>
        Input files
      </Typography.Title>
      <List
        size="small"
        dataSource={info.data}
        locale={{ emptyText: 'No input files' }}
        renderItem={(file) => (
          <List.Item>
            <Typography.Text code>
              {file.file.commit.repo.name}@{file.file.commit.id.slice(0, 8)}:{file.file.path}
            </Typography.Text>
            <span>{formatBytes(file.sizeBytes)}</span>
          </List.Item>
        )}
      />
    </div>
  );
}
