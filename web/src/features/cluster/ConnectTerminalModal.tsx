import { Alert, Typography } from 'antd';
import { Fragment, type ReactNode } from 'react';
import { testIds } from '../../test-ids.ts';
import { CopyCommand, Modal } from '../../ui';
import { useClusterInfo } from './api.ts';
import {
  GRPC_OFF_MESSAGE,
  LOGIN_COMMAND,
  ONE_TIME_PASSWORD_LOGIN_COMMAND,
  clusterCredentialsCommand,
  connectionInputs,
  pythonSdkSnippet,
  setContextCommand,
} from './commands.ts';

/**
 * The copyable command lines: set a context, log in (with sign-in on; optionally with a one-time
 * password), then cluster credentials (cluster mode, a cluster named) or, against this server's
 * embedded platform (its gRPC listener), a Python SDK snippet. With the embedded platform's gRPC
 * listener off there is nothing to connect to, and the dialog says so.
 */
export function ConnectTerminalCommands({ clusterId }: { clusterId: string }) {
  const inputs = connectionInputs(clusterId);
  if (!inputs.pachdAddress) return <Alert type="info" showIcon message={GRPC_OFF_MESSAGE} />;
  const steps: Array<{ title: string; body: ReactNode }> = [
    { title: 'Set the context', body: <CopyCommand command={setContextCommand(inputs)} /> },
  ];
  if (inputs.signIn)
    steps.push({
      title: 'Log in',
      body: (
        <>
          <CopyCommand command={LOGIN_COMMAND} />
          <Typography.Paragraph type="secondary">Or with a one-time password:</Typography.Paragraph>
          <CopyCommand command={ONE_TIME_PASSWORD_LOGIN_COMMAND} />
        </>
      ),
    });
  if (inputs.embedded)
    steps.push({
      title: 'Or use the Python SDK',
      body: <CopyCommand command={pythonSdkSnippet(inputs)} />,
    });
  else if (inputs.clusterName)
    steps.push({
      title: 'Get cluster credentials',
      body: <CopyCommand command={clusterCredentialsCommand(inputs)} />,
    });
  return (
    <div>
      {steps.map((step, index) => (
        <Fragment key={step.title}>
          <Typography.Title level={4}>{`${index + 1}. ${step.title}`}</Typography.Title>
          {step.body}
        </Fragment>
      ))}
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
