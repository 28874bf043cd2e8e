import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Form, Select, Typography, message } from 'antd';
import { useEffect } from 'react';
import { editMetadata, getVersion, inspectCluster } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { formatTimestamp } from '../../format/time.ts';
import { CopyCommand } from '../../ui/CopyCommand/CopyCommand.tsx';
import { EDA_PROJECT, edaKeys, useEdaProject } from './api.ts';
import { EdaToolsCard } from './EdaToolsCard.tsx';
import { LABELS, SETUP_LIST_LABELS, splitList } from './labels.ts';
import { PLUGIN_DESCRIPTION_PATH } from './upload/UploadFilesModal.tsx';
import { Screen } from '../../ui/Screen/index.ts';
import { formatVersion } from '../../format/version.ts';
import {
  GRPC_OFF_MESSAGE,
  LOGIN_COMMAND,
  connectionInputs,
  setContextCommand,
  type ConnectionInputs,
} from '../cluster/commands.ts';

/**
 * Terminal commands for working with project eda from the terminal client, against the server's
 * gRPC listener (none when it is off: see GRPC_OFF_MESSAGE).
 */
export function setupCommands(inputs: ConnectionInputs): string[] {
  if (!inputs.pachdAddress) return [];
  return [
    setContextCommand({ ...inputs, contextName: EDA_PROJECT }),
    `${LABELS.pachctl} config update context --project ${EDA_PROJECT}`,
    ...(inputs.signIn ? [LOGIN_COMMAND] : []),
    `${LABELS.pachctl} list repo --project ${EDA_PROJECT}`,
  ];
}

function LabelLists({ metadata }: { metadata: Record<string, string> }) {
  const client = useApi();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Record<string, string[]>>();
  const [messageApi, holder] = message.useMessage();
  useEffect(() => {
    form.setFieldsValue(
      Object.fromEntries(SETUP_LIST_LABELS.map((key) => [key, splitList(metadata[key])])),
    );
  }, [form, metadata]);
  const save = useMutation({
    mutationFn: (values: Record<string, string[]>) =>
      editMetadata(client, {
        edits: SETUP_LIST_LABELS.map((key) => ({
          project: { name: EDA_PROJECT },
          editKey: { key, value: (values[key] ?? []).join(',') },
        })),
      }),
    onSuccess: () => {
      void messageApi.success('Labels saved.');
      void queryClient.invalidateQueries({ queryKey: edaKeys.project() });
    },
    onError: (error) => void messageApi.error(error.message),
  });
  return (
    <Form form={form} layout="vertical" onFinish={(values) => save.mutate(values)}>
      {holder}
      <Form.Item name={LABELS.kits} label="Kits">
        <Select mode="tags" placeholder="add a kit" aria-label="Kits" />
      </Form.Item>
      <Form.Item name={LABELS.pdkId} label="PDKs">
        <Select mode="tags" placeholder="add a PDK id" aria-label="PDKs" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending}>
        Save labels
      </Button>
    </Form>
  );
}

/** /setup — the cluster connection, the eda project, terminal commands and kit/PDK labels. */
export function SetupScreen() {
  const client = useApi();
  const project = useEdaProject();
  const commands = setupCommands(connectionInputs(EDA_PROJECT));
  const cluster = useQuery({
    queryKey: ['eda', 'cluster'],
    queryFn: ({ signal }) => inspectCluster(client, EDA_PROJECT, signal),
  });
  const version = useQuery({
    queryKey: ['eda', 'version'],
    queryFn: ({ signal }) => getVersion(client, signal),
  });
  const v = version.data;
  return (
    // minmax(0, 1fr): the cards keep the window's width; long commands scroll inside their line.
    <Screen style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 16 }}>
      <Typography.Title level={2}>Setup</Typography.Title>
      <Card title="Cluster">
        <Descriptions column={1} size="small">
          <Descriptions.Item label="Cluster id">
            {cluster.data?.id ?? (cluster.error ? cluster.error.message : '…')}
          </Descriptions.Item>
          <Descriptions.Item label="Version">
            {v ? formatVersion(v) : version.error ? version.error.message : '…'}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title="Project">
        <Descriptions column={1} size="small">
          <Descriptions.Item label="Name">
            {project.data?.project.name ?? EDA_PROJECT}
          </Descriptions.Item>
          <Descriptions.Item label="Description">
            {project.data?.description ?? ''}
          </Descriptions.Item>
          <Descriptions.Item label="Created">
            {formatTimestamp(project.data?.createdAt ?? null)}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title="Terminal commands">
        <div style={{ display: 'grid', gap: 8 }}>
          {commands.length === 0 ? (
            <Alert type="info" showIcon message={GRPC_OFF_MESSAGE} />
          ) : (
            commands.map((command) => <CopyCommand key={command} command={command} />)
          )}
        </div>
      </Card>
      <Card title="Flow plugin">
        <Typography.Paragraph style={{ margin: 0 }}>
          Upload your rtl directory&apos;s <code>user_plugin</code> folder to a bolt with the upload
          modal (File Path <code>/rtl</code>): its description lands at{' '}
          <code>{PLUGIN_DESCRIPTION_PATH}</code>, where the trial service reads a flow&apos;s
          parameters.
        </Typography.Paragraph>
      </Card>
      <Card title="Kits and PDKs">
        <LabelLists metadata={project.data?.metadata ?? {}} />
      </Card>
      <EdaToolsCard />
    </Screen>
  );
}
