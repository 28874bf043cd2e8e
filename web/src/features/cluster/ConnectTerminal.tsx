import CodeOutlined from '@ant-design/icons-svg/es/asn/CodeOutlined';
import { Suspense, lazy, useState } from 'react';
import { testIds } from '../../test-ids.ts';
import { Icon } from '../../ui/Icon/Icon.tsx';

const ConnectTerminalModal = lazy(async () => ({
  default: (await import('./ConnectTerminalModal.tsx')).ConnectTerminalModal,
}));

/** The header's Connect button; the modal with the terminal commands loads on first use. */
export function ConnectTerminalButton() {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  return (
    <>
      <button
        type="button"
        className="ivory-header-button"
        data-testid={testIds.connectButton}
        title="Connect a terminal"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        <Icon icon={CodeOutlined} />
        <span className="ivory-header-label">Connect</span>
      </button>
      {used ? (
        <Suspense fallback={null}>
          <ConnectTerminalModal open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
