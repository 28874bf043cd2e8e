import { Typography } from 'antd';
import { testIds } from '../../test-ids.ts';
import { CopyCommand, Modal } from '../../ui';
import { useClusterInfo } from './api.ts';
import {
  LOGIN_COMMAND,
  ONE_TIME_PASSWORD_LOGIN_COMMAND,
  clusterCredentialsCommand,
  connectionInputs,
  setContextCommand,
} from './commands.ts';

/** The copyable command lines: set a context, log in (optionally one-time password), credentials. */
export function ConnectTerminalCommands({ clusterId }: { clusterId: string }) {
  const inputs = connectionInputs(clusterId);
  return (
    <div>
      <Typography.Title level={4}>1. Set the context</Typography.Title>
      <CopyCommand command={setContextCommand(inputs)} />
      <Typography.Title level={4}>2. Log in</Typography.Title>
      <CopyCommand command={LOGIN_COMMAND} />
      <Typography.Paragraph type="secondary">Or with a one-time password:</Typography.Paragraph>
      <CopyCommand command={ONE_TIME_PASSWORD_LOGIN_COMMAND} />
      <Typography.Title level={4}>3. Get cluster credentials</Typography.Title>
      <CopyCommand command={clusterCredentialsCommand(inputs)} />
    </div>
  );
}

function ConnectTerminalBody() {
  const cluster = useClusterInfo();
  if (cluster.isPending) return <Typography.Text>Loading…</Typography.Text>;
  return <ConnectTerminalCommands clusterId={cluster.data?.id ?? ''} />;
}

export function ConnectTerminalModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} onClose={onClose} title="Connect a terminal" hideConfirm cancelText="Close">
      <div data-testid={testIds.connectModal}>{open ? <ConnectTerminalBody /> : null}</div>
    </Modal>
  );
}
