import { ApiError } from '@ivory/api';
import { lazy } from 'react';
import { useLocation, useParams } from 'react-router';
import { errorViewOf } from '../../features/errors/error-types.ts';
import { useProject } from '../../features/repos/api.ts';
import { testIds } from '../../test-ids.ts';
import { crumbsOf } from './crumbs.ts';
import { projectNavItems } from './nav-items.tsx';
import { ProjectBar } from './ProjectBar.tsx';
import { ShellFrame } from './ShellFrame.tsx';

const ErrorScreen = lazy(async () => ({
  default: (await import('../../features/errors/ErrorScreen.tsx')).ErrorScreen,
}));

const isNotFound = (error: unknown) => error instanceof ApiError && error.code === 5;

/**
 * The frame of every project and lineage screen: the top bar with the project's switcher, health
 * and search, the side navigation between the project's screens, and breadcrumbs back up.
 */
export function ProjectShell() {
  const { projectId = '' } = useParams();
  const { pathname } = useLocation();
  // A project that does not exist says so (inside the frame), rather than looking empty.
  const project = useProject(projectId);
  const missing = isNotFound(project.error) ? (
    <ErrorScreen {...errorViewOf(project.error)} />
  ) : undefined;
  return (
    <ShellFrame
      testId={testIds.projectShell}
      navItems={projectNavItems(projectId)}
      navLabel="Project"
      crumbs={crumbsOf(pathname)}
      bar={<ProjectBar project={projectId} />}
      replacement={missing}
    />
  );
}
