import { useQuery } from '@tanstack/react-query';
import { Descriptions, Typography } from 'antd';
import { getVersion } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { testIds } from '../../test-ids.ts';
import { useClusterInfo } from './api.ts';
import { formatVersion } from '../../format/version.ts';
import { FsckReport } from './FsckReport.tsx';
import { Screen } from '../../ui/Screen/index.ts';

/** `/cluster`: the cluster's id and version, and the storage check. */
export function ClusterScreen() {
  const client = useApi();
  const cluster = useClusterInfo();
  const version = useQuery({
    queryKey: ['cluster', 'version'],
    queryFn: ({ signal }) => getVersion(client, signal),
    staleTime: Infinity,
  });
  const show = (query: { isPending: boolean; error: Error | null }, value?: string) =>
    query.error ? query.error.message : query.isPending ? '…' : value || '-';
  return (
    <Screen>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        Cluster
      </Typography.Title>
      <Descriptions
        data-testid={testIds.clusterFacts}
        size="small"
        column={1}
        style={{ marginBottom: 24, maxWidth: 640 }}
        items={[
          {
            key: 'id',
            label: 'Cluster id',
            children: <Typography.Text code>{show(cluster, cluster.data?.id)}</Typography.Text>,
          },
          {
            key: 'version',
            label: 'Version',
            children: show(version, version.data ? formatVersion(version.data) : undefined),
          },
        ]}
      />
      <FsckReport />
    </Screen>
  );
}
