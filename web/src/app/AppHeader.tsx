import { Link } from 'react-router';
import { AccountMenu } from '../features/auth/AccountMenu.tsx';
import { ConnectTerminalButton } from '../features/cluster/ConnectTerminal.tsx';
import { testIds } from '../test-ids.ts';

/** The slim bar above every screen: home link, Connect (terminal commands), account and Sign out. */
export function AppHeader() {
  return (
    <header
      data-testid={testIds.appHeader}
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 12,
        padding: '6px 16px',
        borderBottom: '1px solid #eee',
      }}
    >
      <Link to="/" style={{ fontWeight: 600, marginRight: 'auto' }}>
        Console
      </Link>
      <Link to="/cluster" data-testid={testIds.clusterLink}>
        Cluster
      </Link>
      <ConnectTerminalButton />
      <AccountMenu />
    </header>
  );
}
