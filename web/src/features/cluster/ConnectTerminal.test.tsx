import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiProvider } from '../../data/api-context.tsx';
import { createFakeApiClient } from '../../test/fake-api-client.ts';
import { testIds } from '../../test-ids.ts';
import { ToastProvider } from '../../ui/Toast/Toast.tsx';
import {
  clusterCredentialsCommand,
  connectionInputs,
  pachdAddressFor,
  pythonSdkSnippet,
  setContextCommand,
} from './commands.ts';
import { ConnectTerminalButton } from './ConnectTerminal.tsx';

afterEach(() => {
  delete window.pachDashConfig;
  vi.restoreAllMocks();
});

describe('connection commands', () => {
  const inputs = {
    contextName: 'prod',
    pachdAddress: 'grpcs://pachd.example.com:443',
    clusterName: 'main',
    cloudZone: 'us-east1-b',
    cloudProjectId: 'acme',
    embedded: false,
    signIn: true,
  };

  it('sets the context with source 2 and makes it active', () => {
    expect(setContextCommand(inputs)).toBe(
      `echo '{"pachd_address": "grpcs://pachd.example.com:443", "source": 2}' | pachctl config set context prod --overwrite && pachctl config set active-context prod`,
    );
  });

  it('gets the cluster credentials', () => {
    expect(clusterCredentialsCommand(inputs)).toBe(
      'gcloud container clusters get-credentials main --zone us-east1-b --project acme',
    );
  });

  it('derives the pachd address from the origin unless configured', () => {
    expect(pachdAddressFor({ protocol: 'http:', hostname: '127.0.0.1', port: '4000' })).toBe(
      'grpc://127.0.0.1:4000',
    );
    expect(pachdAddressFor({ protocol: 'https:', hostname: 'c.example.com', port: '' })).toBe(
      'grpcs://c.example.com:443',
    );
    // The embedded platform with its gRPC listener off has no address at all.
    expect(pachdAddressFor({ protocol: 'http:', hostname: 'h', port: '4000' }, '', '', true)).toBe(
      '',
    );
    expect(connectionInputs('cid', { REACT_APP_PACHD_ADDRESS: 'grpc://p:30650' })).toMatchObject({
      contextName: 'cid',
      pachdAddress: 'grpc://p:30650',
    });
  });

  it("points at the server's gRPC listener in embedded mode", () => {
    const location = { protocol: 'https:', hostname: 'ivory.local', port: '8443' };
    const embedded = connectionInputs('cid', { REACT_APP_GRPC_PORT: '1650' }, location);
    expect(embedded).toMatchObject({ pachdAddress: 'grpc://ivory.local:1650', embedded: true });
    expect(setContextCommand(embedded)).toContain('"pachd_address": "grpc://ivory.local:1650"');
    expect(pythonSdkSnippet(embedded)).toContain(
      'client = Client.from_pachd_address("grpc://ivory.local:1650")',
    );
    // A configured address still wins.
    expect(
      connectionInputs(
        'cid',
        { REACT_APP_GRPC_PORT: '1650', REACT_APP_PACHD_ADDRESS: 'grpc://p:1' },
        location,
      ).pachdAddress,
    ).toBe('grpc://p:1');
    // In cluster mode without a listener the page's origin is used.
    expect(connectionInputs('cid', { REACT_APP_PLATFORM: 'cluster' }, location)).toMatchObject({
      pachdAddress: 'grpcs://ivory.local:8443',
      embedded: false,
    });
  });
});

describe('ConnectTerminalButton', () => {
  /** Renders the button against cluster cluster-42 and opens its modal. */
  async function openConnectModal() {
    const user = userEvent.setup();
    const api = createFakeApiClient({
      'admin_v2.API/InspectCluster': () => ({ id: 'cluster-42' }),
    });
    const view = render(
      <QueryClientProvider client={new QueryClient()}>
        <ApiProvider client={api}>
          <ToastProvider>
            <ConnectTerminalButton />
          </ToastProvider>
        </ApiProvider>
      </QueryClientProvider>,
    );
    await user.click(within(view.container).getByTestId(testIds.connectButton));
    const modal = await screen.findByTestId(testIds.connectModal, {}, { timeout: 10_000 });
    return { user, modal, unmount: view.unmount };
  }

  it(
    'opens the commands filled from InspectCluster and copies one with a toast',
    { timeout: 20_000 },
    async () => {
      Object.assign(window, {
        pachDashConfig: {
          REACT_APP_PLATFORM: 'cluster',
          REACT_APP_RUNTIME_ISSUER_URI: 'http://idp.example',
          REACT_APP_CLUSTER_NAME: 'main',
        },
      });
      const { user, modal } = await openConnectModal();
      expect(
        await within(modal).findByText(/pachctl config set context cluster-42 --overwrite/),
      ).toBeInTheDocument();
      expect(within(modal).getByText('pachctl auth login')).toBeInTheDocument();
      expect(within(modal).getByText('pachctl auth login --one-time-password')).toBeInTheDocument();
      expect(
        within(modal).getByText(/gcloud container clusters get-credentials/),
      ).toBeInTheDocument();

      await user.click(within(modal).getAllByRole('button', { name: 'Copy command' })[1]!);
      expect(await navigator.clipboard.readText()).toBe('pachctl auth login');
      expect(await screen.findByText('Command Line Copied')).toBeInTheDocument();
    },
  );

  it(
    "in embedded mode shows the gRPC listener's commands and a copyable Python SDK snippet",
    { timeout: 20_000 },
    async () => {
      Object.assign(window, { pachDashConfig: { REACT_APP_GRPC_PORT: '1650' } });
      const { user, modal } = await openConnectModal();
      const address = `grpc://${window.location.hostname}:1650`;
      expect(
        await within(modal).findByText(
          new RegExp(`"pachd_address": "${address}".*pachctl config set context cluster-42`),
        ),
      ).toBeInTheDocument();
      expect(within(modal).queryByText(/gcloud container clusters/)).not.toBeInTheDocument();
      const copyButtons = within(modal).getAllByRole('button', { name: 'Copy command' });
      await user.click(copyButtons[copyButtons.length - 1]!);
      const snippet = await navigator.clipboard.readText();
      expect(snippet).toContain('from pachyderm_sdk import Client');
      expect(snippet).toContain(`Client.from_pachd_address("${address}")`);
    },
  );
  it(
    'with sign-in off shows no login step; with the gRPC listener off says why nothing connects',
    { timeout: 20_000 },
    async () => {
      Object.assign(window, { pachDashConfig: { REACT_APP_GRPC_PORT: '1650' } });
      const first = await openConnectModal();
      await within(first.modal).findByText(/pachctl config set context/);
      expect(within(first.modal).queryByText(/pachctl auth login/)).not.toBeInTheDocument();
      expect(within(first.modal).queryByText(/gcloud/)).not.toBeInTheDocument();
      first.unmount();

      Object.assign(window, { pachDashConfig: {} });
      const { modal } = await openConnectModal();
      expect(await within(modal).findByText(/gRPC listener is off/)).toBeInTheDocument();
      expect(within(modal).queryByText(/pachctl config set context/)).not.toBeInTheDocument();
      expect(within(modal).queryByRole('button', { name: 'Copy command' })).toBeNull();
    },
  );
});
