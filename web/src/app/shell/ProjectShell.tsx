import MenuOutlined from '@ant-design/icons-svg/es/asn/MenuOutlined';
import { Drawer, Grid } from 'antd';
import { Suspense, useState } from 'react';
import { Link, Outlet, useLocation, useParams } from 'react-router';
import { testIds } from '../../test-ids.ts';
import { Icon } from '../../ui/Icon/index.ts';
import { SideNav } from '../../ui/SideNav/index.ts';
import { AppHeader } from '../AppHeader.tsx';
import { PageLoader } from '../PageLoader.tsx';
import { crumbsOf } from './crumbs.ts';
import { projectNavItems } from './nav-items.tsx';
import { ProjectBar } from './ProjectBar.tsx';
import styles from './ProjectShell.module.css';

/** Below this width the side navigation starts minimised (icons with tooltips). */
export const SHELL_NAV_BREAKPOINT_PX = 1024;

/**
 * On phone-sized windows (under antd's sm breakpoint, 576 px) the side navigation leaves the page:
 * a button at the start of the top bar opens it in a drawer, which closes on navigation.
 */
function NavDrawerButton({ project, pathname }: { project: string; pathname: string }) {
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  // Open only on the page it was opened on: following one of its links closes it.
  const open = openedAt === pathname;
  return (
    <>
      <button
        type="button"
        className="ivory-header-button"
        aria-label="Open navigation"
        title="Navigation"
        aria-expanded={open}
        data-testid={testIds.shellNavOpen}
        onClick={() => setOpenedAt(pathname)}
      >
        <Icon icon={MenuOutlined} />
      </button>
      <Drawer
        open={open}
        onClose={() => setOpenedAt(null)}
        placement="left"
        width={240}
        title="Project"
        styles={{ body: { padding: 0 } }}
      >
        {/* breakpoint 1: no window is narrower, so the drawer's navigation is never minimised. */}
        <SideNav items={projectNavItems(project)} breakpoint={1} aria-label="Project" />
      </Drawer>
    </>
  );
}

/**
 * The frame of every project and lineage screen: the top bar with the project's switcher, health
 * and search, the side navigation between the project's screens, and breadcrumbs back up.
 */
export function ProjectShell() {
  const { projectId = '' } = useParams();
  const { pathname } = useLocation();
  const crumbs = crumbsOf(pathname);
  const phone = Grid.useBreakpoint().sm === false;
  return (
    <div className={styles.shell} data-testid={testIds.projectShell}>
      <AppHeader start={phone ? <NavDrawerButton project={projectId} pathname={pathname} /> : null}>
        <ProjectBar project={projectId} />
      </AppHeader>
      <div className={styles.body}>
        {phone ? null : (
          <aside className={styles.nav}>
            <SideNav
              items={projectNavItems(projectId)}
              breakpoint={SHELL_NAV_BREAKPOINT_PX}
              aria-label="Project"
            />
          </aside>
        )}
        <main className={styles.main}>
          {crumbs.length > 1 ? (
            <nav aria-label="Breadcrumb" data-testid={testIds.shellBreadcrumbs}>
              <ol className={styles.crumbs}>
                {crumbs.map((crumb, index) => (
                  <li key={index}>
                    {crumb.to ? (
                      <Link to={crumb.to} className="ivory-truncate" title={crumb.label}>
                        {crumb.label}
                      </Link>
                    ) : (
                      <span className="ivory-truncate" title={crumb.label} aria-current="page">
                        {crumb.label}
                      </span>
                    )}
                  </li>
                ))}
              </ol>
            </nav>
          ) : null}
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
