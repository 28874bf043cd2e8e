import { Typography } from 'antd';
import { testIds } from '../../test-ids.ts';
import { CopyCommand, Modal } from '../../ui';
import { useClusterInfo } from './api.ts';
import {
  LOGIN_COMMAND,
  ONE_TIME_PASSWORD_LOGIN_COMMAND,
  clusterCredentialsCommand,
  connectionInputs,
  pythonSdkSnippet,
  setContextCommand,
} from './commands.ts';

/**
 * The copyable command lines: set a context, log in (optionally one-time password), then cluster
 * credentials — or, against this server's embedded platform (its gRPC listener), the same
 * context commands pointing at that listener and a Python SDK snippet.
 */
export function ConnectTerminalCommands({ clusterId }: { clusterId: string }) {
  const inputs = connectionInputs(clusterId);
  return (
    <div>
      <Typography.Title level={4}>1. Set the context</Typography.Title>
      <CopyCommand command={setContextCommand(inputs)} />
      <Typography.Title level={4}>2. Log in</Typography.Title>
      {inputs.embedded ? (
        <Typography.Paragraph type="secondary">Only when sign-in is on:</Typography.Paragraph>
      ) : null}
      <CopyCommand command={LOGIN_COMMAND} />
      <Typography.Paragraph type="secondary">Or with a one-time password:</Typography.Paragraph>
      <CopyCommand command={ONE_TIME_PASSWORD_LOGIN_COMMAND} />
      {inputs.embedded ? (
        <>
          <Typography.Title level={4}>3. Or use the Python SDK</Typography.Title>
          <CopyCommand command={pythonSdkSnippet(inputs)} />
        </>
      ) : (
        <>
          <Typography.Title level={4}>3. Get cluster credentials</Typography.Title>
          <CopyCommand command={clusterCredentialsCommand(inputs)} />
        </>
      )}
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
