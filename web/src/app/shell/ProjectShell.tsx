import { useLocation, useParams } from 'react-router';
import { testIds } from '../../test-ids.ts';
import { crumbsOf } from './crumbs.ts';
import { projectNavItems } from './nav-items.tsx';
import { ProjectBar } from './ProjectBar.tsx';
import { ShellFrame } from './ShellFrame.tsx';

/**
 * The frame of every project and lineage screen: the top bar with the project's switcher, health
 * and search, the side navigation between the project's screens, and breadcrumbs back up.
 */
export function ProjectShell() {
  const { projectId = '' } = useParams();
  const { pathname } = useLocation();
  return (
    <ShellFrame
      testId={testIds.projectShell}
      navItems={projectNavItems(projectId)}
      navLabel="Project"
      crumbs={crumbsOf(pathname)}
      bar={<ProjectBar project={projectId} />}
    />
  );
}
