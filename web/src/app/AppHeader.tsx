import CloudServerOutlined from '@ant-design/icons-svg/es/asn/CloudServerOutlined';
import MoonOutlined from '@ant-design/icons-svg/es/asn/MoonOutlined';
import SunOutlined from '@ant-design/icons-svg/es/asn/SunOutlined';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AccountMenu } from '../features/auth/AccountMenu.tsx';
import { ConnectTerminalButton } from '../features/cluster/ConnectTerminal.tsx';
import { testIds } from '../test-ids.ts';
import { useColorMode } from '../ui/theme/color-mode.tsx';
import { Icon } from '../ui/Icon/Icon.tsx';
import { headerLinkStyle } from './header-styles.ts';

/** Switches between the light and the dark theme; the choice is remembered in the browser. */
export function ColorModeToggle() {
  const { mode, toggle } = useColorMode();
  const next = mode === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="ivory-header-button"
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
 * The dark bar above every screen: what the screen puts first (a project's navigation button on
 * narrow windows), home link, what the screen adds (a project's switcher, health and search),
 * Cluster, Connect (terminal commands), the theme toggle, account and Sign out. On narrow windows
 * Cluster, Connect and Sign out show only their icons; their names stay for assistive technology
 * and in tooltips.
 */
export function AppHeader({ children, start }: { children?: ReactNode; start?: ReactNode }) {
  // Layout and the narrow-window rules (controls shrink to their icons) are in global.css.
  return (
    <header data-testid={testIds.appHeader} className="ivory-app-header">
      {start}
      <Link to="/" style={{ ...headerLinkStyle, fontWeight: 700, fontSize: 16, flex: 'none' }}>
        Ivory
      </Link>
      <div className="ivory-app-header-slot">{children}</div>
      <Link to="/cluster" data-testid={testIds.clusterLink} style={headerLinkStyle} title="Cluster">
        <Icon icon={CloudServerOutlined} />
        <span className="ivory-header-label">Cluster</span>
      </Link>
      <ConnectTerminalButton />
      <ColorModeToggle />
      <AccountMenu />
    </header>
  );
}
