import { Suspense, lazy, useState } from 'react';
import { headerButtonStyle } from '../../app/header-styles.ts';
import { testIds } from '../../test-ids.ts';

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
        style={headerButtonStyle}
        data-testid={testIds.connectButton}
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        Connect
      </button>
      {used ? (
        <Suspense fallback={null}>
          <ConnectTerminalModal open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
