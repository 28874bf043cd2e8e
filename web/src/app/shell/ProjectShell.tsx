import { Suspense } from 'react';
import { Link, Outlet, useLocation, useParams } from 'react-router';
import { testIds } from '../../test-ids.ts';
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
 * The frame of every project and lineage screen: the top bar with the project's switcher, health
 * and search, the side navigation between the project's screens, and breadcrumbs back up.
 */
export function ProjectShell() {
  const { projectId = '' } = useParams();
  const { pathname } = useLocation();
  const crumbs = crumbsOf(pathname);
  return (
    <div className={styles.shell} data-testid={testIds.projectShell}>
      <AppHeader>
        <ProjectBar project={projectId} />
      </AppHeader>
      <div className={styles.body}>
        <aside className={styles.nav}>
          <SideNav
            items={projectNavItems(projectId)}
            breakpoint={SHELL_NAV_BREAKPOINT_PX}
            aria-label="Project"
          />
        </aside>
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
