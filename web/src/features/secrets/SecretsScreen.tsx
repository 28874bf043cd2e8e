import MinusOutlined from '@ant-design/icons-svg/es/asn/MinusOutlined';
import { EmptyState } from '../../ui/EmptyState/index.ts';
import { Icon } from '../../ui/Icon/index.ts';
import { Alert, Button, Flex, Input, Modal as AntModal, Space, Table, Typography } from 'antd';
import { useState, type HTMLAttributes } from 'react';
import type { SecretInfo } from '@ivory/api';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { ConfirmModal } from '../../ui/Modal/index.ts';
import { useToast } from '../../ui/Toast/index.ts';
import { useCreateSecret, useDeleteSecret, useSecrets } from './api.ts';
import { secretFormError, type SecretPair } from './secret-form.ts';
import { Screen } from '../../ui/Screen/index.ts';
import { NoWrap } from '../../ui/NoWrap/index.ts';

function CreateSecretModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateSecret();
  const toast = useToast();
  const [name, setName] = useState('');
  const [pairs, setPairs] = useState<SecretPair[]>([{ key: '', value: '' }]);
  const [touched, setTouched] = useState(false);
  const error = secretFormError(name, pairs);
  const reset = () => {
    setName('');
    setPairs([{ key: '', value: '' }]);
    setTouched(false);
  };
  return (
    <AntModal
      open={open}
      title="Create secret"
      okText="Create"
      okButtonProps={{ disabled: touched && error !== null, loading: create.isPending }}
      onCancel={() => {
        reset();
        onClose();
      }}
      onOk={() => {
        setTouched(true);
        if (error) return;
        create.mutate(
          { name, values: pairs.filter((p) => p.key !== '') },
          {
            onSuccess: () => {
              toast({ content: `Secret ${name} created` });
              reset();
              onClose();
            },
            onError: (e) => toast({ content: e.message, type: 'error' }),
          },
        );
      }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input
          aria-label="Secret name"
          placeholder="Name"
          value={name}
          onChange={(e) => setName(e.target.value.trim())}
        />
        {pairs.map((pair, i) => (
          <Flex key={i} gap={8}>
            <Input
              aria-label={`Key ${i + 1}`}
              placeholder="Key"
              value={pair.key}
              onChange={(e) =>
                setPairs((ps) =>
                  ps.map((p, j) => (j === i ? { ...p, key: e.target.value.trim() } : p)),
                )
              }
            />
            <Input.Password
              aria-label={`Value ${i + 1}`}
              placeholder="Value"
              value={pair.value}
              onChange={(e) =>
                setPairs((ps) => ps.map((p, j) => (j === i ? { ...p, value: e.target.value } : p)))
              }
            />
            <Button
              aria-label={`Remove pair ${i + 1}`}
              onClick={() => setPairs((ps) => ps.filter((_, j) => j !== i))}
              disabled={pairs.length === 1}
              icon={<Icon icon={MinusOutlined} />}
            />
          </Flex>
        ))}
        <Button onClick={() => setPairs((ps) => [...ps, { key: '', value: '' }])}>Add key</Button>
        {touched && error ? <Alert type="error" message={error} /> : null}
        <Typography.Text type="secondary">
          Values are sent once, encrypted at rest, and never shown again.
        </Typography.Text>
      </Space>
    </AntModal>
  );
}

/** The cluster's secrets (names, types, creation times; never values): create and delete. */
export function SecretsScreen() {
  const secrets = useSecrets();
  const remove = useDeleteSecret();
  const toast = useToast();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  return (
    <Screen>
      <Flex justify="space-between" align="center">
        <Typography.Title level={2}>Secrets</Typography.Title>
        <Button type="primary" data-testid={testIds.secretCreate} onClick={() => setCreating(true)}>
          Create secret
        </Button>
      </Flex>
      {secrets.error ? <Alert type="error" message={secrets.error.message} /> : null}
      <Table<SecretInfo>
        size="small"
        rowKey={(s) => s.secret.name}
        pagination={false}
        loading={secrets.isPending && !secrets.error}
        dataSource={secrets.data ?? []}
        onRow={() => ({ 'data-testid': testIds.secretRow }) as HTMLAttributes<HTMLElement>}
        locale={{
          emptyText: (
            <EmptyState
              data-testid={testIds.emptyState}
              title="No secrets yet"
              hint="A secret keeps credentials out of pipeline specs: pipelines read it as files or environment variables."
              action={
                <Button type="primary" onClick={() => setCreating(true)}>
                  Create secret
                </Button>
              }
            />
          ),
        }}
        columns={[
          { title: 'Name', key: 'name', render: (_, s) => s.secret.name },
          { title: 'Type', key: 'type', render: (_, s) => s.type || 'Opaque' },
          {
            title: 'Created',
            key: 'created',
            render: (_, s) => <NoWrap>{formatTimestamp(s.creationTimestamp)}</NoWrap>,
          },
          {
            title: '',
            key: 'actions',
            render: (_, s) => (
              <Button size="small" danger onClick={() => setDeleting(s.secret.name)}>
                Delete
              </Button>
            ),
          },
        ]}
      />
      <CreateSecretModal open={creating} onClose={() => setCreating(false)} />
      <ConfirmModal
        open={deleting !== null}
        title="Delete secret"
        text={`Delete the secret ${deleting}? Pipelines that use it will fail to start datums.`}
        confirmText="Delete"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const name = deleting as string;
          setDeleting(null);
          remove.mutate(name, {
            onSuccess: () => toast({ content: `Secret ${name} deleted` }),
            onError: (e) => toast({ content: e.message, type: 'error' }),
          });
        }}
      />
    </Screen>
  );
}
