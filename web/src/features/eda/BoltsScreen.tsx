import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Space, Table, Typography, message } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HTMLAttributes, ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { createRepo } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { formatBytes } from '../../format/bytes.ts';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { EDA_PROJECT, edaKeys, useBolts, type Bolt } from './api.ts';
import { boltErrorMessage } from './bolt-errors.ts';
import { NoWrap } from '../../ui/NoWrap/index.ts';
import { Screen } from '../../ui/Screen/index.ts';
import { LandedMessage } from './upload/LandedMessage.tsx';
import { landedFromState } from './upload/landed.ts';

const columns: ColumnsType<Bolt> = [
  {
    title: 'Bolt',
    dataIndex: 'name',
    render: (name: string) => (
      <NoWrap>
        <Link to={`/project/${EDA_PROJECT}/repos/${encodeURIComponent(name)}/latest`}>{name}</Link>
      </NoWrap>
    ),
  },
  { title: 'Description', dataIndex: 'description' },
  {
    title: 'Last upload',
    key: 'head',
    render: (_value, bolt) =>
      bolt.head ? (
        <span>
          {formatTimestamp(bolt.head.finished ?? bolt.head.started)}
          {bolt.head.description ? ` — ${bolt.head.description}` : ''}
        </span>
      ) : (
        'never'
      ),
  },
  {
    title: 'Size',
    dataIndex: 'sizeBytes',
    render: (size: number) => <NoWrap>{formatBytes(size)}</NoWrap>,
  },
  {
    title: 'Actions',
    key: 'actions',
    render: (_value, bolt) => (
      <Link to={`/updatebolt/${encodeURIComponent(bolt.name)}`}>
        <Button size="small">Upload</Button>
      </Link>
    ),
  },
];

/** Create-bolt action: a repo in project eda. */
export function CreateBoltForm() {
  const client = useApi();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ name: string; description?: string }>();
  const [messageApi, holder] = message.useMessage();
  const create = useMutation({
    mutationFn: (values: { name: string; description?: string }) =>
      createRepo(client, {
        project: EDA_PROJECT,
        repo: values.name.trim(),
        description: values.description?.trim() ?? '',
      }),
    onSuccess: () => {
      form.resetFields();
      void queryClient.invalidateQueries({ queryKey: edaKeys.all });
    },
    onError: (error, values) => void messageApi.error(boltErrorMessage(error, values.name.trim())),
  });
  return (
    <Form
      form={form}
      layout="inline"
      onFinish={(values) => create.mutate(values)}
      data-testid={testIds.edaCreateBolt}
      style={{ marginBottom: 16 }}
    >
      {holder}
      <Form.Item
        name="name"
        label="New bolt"
        rules={[
          { required: true, message: 'A bolt name is required' },
          { pattern: /^[a-zA-Z0-9_-]+$/, message: 'Letters, digits, "_" and "-" only' },
        ]}
      >
        <Input placeholder="bolt name" />
      </Form.Item>
      <Form.Item name="description">
        <Input placeholder="description (optional)" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={create.isPending}>
        Create bolt
      </Button>
    </Form>
  );
}

export function BoltsTable({
  bolts,
  loading,
  emptyText = 'No bolts yet: create one above.',
}: {
  bolts: Bolt[];
  loading: boolean;
  /** What an empty table says; the default suits the bolts page (the form is above it). */
  emptyText?: ReactNode;
}) {
  return (
    <Table<Bolt>
      rowKey="name"
      loading={loading}
      columns={columns}
      dataSource={bolts}
      pagination={false}
      locale={{ emptyText }}
      onRow={() => ({ 'data-testid': testIds.edaBoltRow }) as HTMLAttributes<HTMLElement>}
    />
  );
}

/** /bolt: every bolt with its last upload and size, an Upload action each, and create-bolt. */
export function BoltsScreen() {
  const bolts = useBolts();
  const location = useLocation();
  const navigate = useNavigate();
  // After an upload (the modal's redirect): what it landed as and the trials it started.
  const landed = landedFromState(location.state);
  if (bolts.error) throw bolts.error;
  return (
    <Screen>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={2}>Bolts</Typography.Title>
      </Space>
      {landed ? (
        <LandedMessage
          landed={landed}
          onClose={() => void navigate(location.pathname, { replace: true, state: null })}
        />
      ) : null}
      <CreateBoltForm />
      <BoltsTable bolts={bolts.data ?? []} loading={bolts.isPending} />
    </Screen>
  );
}
