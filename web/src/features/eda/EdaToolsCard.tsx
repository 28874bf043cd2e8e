import { useQuery } from '@tanstack/react-query';
import { Card, Table, Tag, Typography } from 'antd';
import type { EdaTool } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { call } from '@ivory/api';

/** The setup screen's list of the EDA tools this server can run. */
export function EdaToolsCard() {
  const client = useApi();
  const tools = useQuery({
    queryKey: ['eda', 'tools'],
    queryFn: ({ signal }) => call(client, 'omni_v1.API/InspectEdaTools', {}, signal),
  });
  return (
    <Card title="EDA tools on this server">
      {tools.error ? (
        <Typography.Text type="danger">{tools.error.message}</Typography.Text>
      ) : (
        <Table<EdaTool>
          aria-label="EDA tools"
          size="small"
          pagination={false}
          loading={tools.isLoading}
          rowKey={(tool) => tool.name}
          dataSource={tools.data?.tools ?? []}
          columns={[
            { title: 'Tool', key: 'name', render: (_, tool) => tool.name },
            { title: 'Stage', key: 'stage', render: (_, tool) => tool.stage },
            { title: 'Used for', key: 'purpose', render: (_, tool) => tool.purpose },
            {
              title: 'Status',
              key: 'status',
              render: (_, tool) =>
                tool.available ? (
                  <span>
                    <Tag color="green">installed</Tag> {tool.version}
                  </span>
                ) : (
                  <span>
                    <Tag color="default">not installed</Tag> the stage is not run; install with{' '}
                    <code>{tool.install}</code>
                  </span>
                ),
            },
          ]}
        />
      )}
    </Card>
  );
}
