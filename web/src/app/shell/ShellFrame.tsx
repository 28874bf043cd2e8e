import { Grid } from 'antd';
import { Suspense, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { MAIN_CONTENT_ID, ScreenFrameContext } from '../../ui/Screen/index.ts';
import { SideNav, type SideNavItem } from '../../ui/SideNav/index.ts';
import { AppHeader } from '../AppHeader.tsx';
import { PageLoader } from '../../ui/PageLoader/PageLoader.tsx';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import type { Crumb } from './crumbs.ts';
import { NavDrawerButton } from './NavDrawerButton.tsx';
import styles from './ShellFrame.module.css';

/** Below this width a shell's side navigation starts minimised (icons with tooltips). */
export const SHELL_NAV_BREAKPOINT_PX = 1024;

export interface ShellFrameProps {
  /** The side navigation's entries. */
  navItems: SideNavItem[];
  /** Names the side navigation (its landmark) and titles its drawer on phones. */
  navLabel: string;
  crumbs: Crumb[];
  /** What the shell adds to the top bar (a project's switcher, health and search). */
  bar?: ReactNode;
  testId: string;
  /** Shown instead of the current screen (e.g. the error of a project that does not exist). */
  replacement?: ReactNode;
}

/**
 * The frame of a shell's screens (the project console's, the benchmarking one's): the top bar, the
 * side navigation between the shell's screens, breadcrumbs back up, and the screen. On phone-sized
 * windows (under antd's sm breakpoint, 576 px) the navigation moves into a drawer opened from the
 * bar; below SHELL_NAV_BREAKPOINT_PX it starts minimised. The frame is the page's <main> and pads
 * it: screens inside (Screen) add neither.
 */
export function ShellFrame({
  navItems,
  navLabel,
  crumbs,
  bar,
  testId,
  replacement,
}: ShellFrameProps) {
  const phone = Grid.useBreakpoint().sm === false;
  return (
    <div className={styles.shell} data-testid={testId}>
      <AppHeader start={phone ? <NavDrawerButton items={navItems} label={navLabel} /> : null}>
        {bar}
      </AppHeader>
      <div className={styles.body}>
        {phone ? null : (
          <aside className={styles.nav}>
            <SideNav items={navItems} breakpoint={SHELL_NAV_BREAKPOINT_PX} aria-label={navLabel} />
          </aside>
        )}
        <main className={styles.main} id={MAIN_CONTENT_ID} tabIndex={-1}>
          <Breadcrumbs crumbs={crumbs} />
          <ScreenFrameContext value={true}>
            <Suspense fallback={<PageLoader />}>{replacement ?? <Outlet />}</Suspense>
          </ScreenFrameContext>
        </main>
      </div>
    </div>
  );
}
