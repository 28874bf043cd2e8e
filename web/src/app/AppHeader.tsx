import CloudServerOutlined from '@ant-design/icons-svg/es/asn/CloudServerOutlined';
import MoonOutlined from '@ant-design/icons-svg/es/asn/MoonOutlined';
import SunOutlined from '@ant-design/icons-svg/es/asn/SunOutlined';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AccountMenu } from '../features/auth/AccountMenu.tsx';
import { ConnectTerminalButton } from '../features/cluster/ConnectTerminal.tsx';
import { testIds } from '../test-ids.ts';
import { useColorMode } from './color-mode.tsx';
import { Icon } from '../ui/Icon/Icon.tsx';
import { headerButtonStyle, headerLinkStyle } from './header-styles.ts';

/** Switches between the light and the dark theme; the choice is remembered in the browser. */
export function ColorModeToggle() {
  const { mode, toggle } = useColorMode();
  const next = mode === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      style={headerButtonStyle}
      onClick={toggle}
      aria-label={`Switch to the ${next} theme`}
      title={`Switch to the ${next} theme`}
      data-testid={testIds.colorModeToggle}
    >
      <Icon icon={mode === 'dark' ? SunOutlined : MoonOutlined} />
    </button>
  );
}

/**
 * The dark bar above every screen: home link, what the screen adds (a project's switcher, health
 * and search), Cluster, Connect (terminal commands), the theme toggle, account and Sign out.
 */
export function AppHeader({ children }: { children?: ReactNode }) {
  return (
    <header
      data-testid={testIds.appHeader}
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 12,
        minHeight: 'var(--ivory-header-height)',
        padding: '0 16px',
        background: 'var(--ivory-header-bg)',
        color: 'var(--ivory-header-text)',
        flexWrap: 'wrap',
      }}
    >
      <Link to="/" style={{ ...headerLinkStyle, fontWeight: 700, fontSize: 16 }}>
        Console
      </Link>
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, flex: 1, minWidth: 0 }}>
        {children}
      </div>
      <Link to="/cluster" data-testid={testIds.clusterLink} style={headerLinkStyle}>
        <Icon icon={CloudServerOutlined} />
        Cluster
      </Link>
      <ConnectTerminalButton />
      <ColorModeToggle />
      <AccountMenu />
    </header>
  );
}
