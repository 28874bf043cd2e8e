import { Suspense, useEffect, type ComponentType } from 'react';
import { Navigate, Outlet, useLocation, type LoaderFunction, type RouteObject } from 'react-router';
import { checkTokenExpiry } from '../features/auth/session.ts';
import { commitRouteLoader } from '../features/commits/commit-route-loader.ts';
import { jobLogsRouteLoader } from '../features/logs/job-logs-route-loader.ts';
import { reposRouteLoader } from '../features/repos/repos-route-loader.ts';
import { RouteErrorBoundary } from '../features/errors/RouteErrorBoundary.tsx';
import { UncaughtErrorGate } from '../features/errors/UncaughtErrorGate.tsx';
import { useTelemetryTracking } from '../features/telemetry/useTelemetryTracking.ts';
import { AppHeader } from './AppHeader.tsx';
import { PageLoader } from './PageLoader.tsx';
import type { RouteLoaderDeps } from './route-loader-deps.ts';
import { isProjectShellPath, screenRouteTable, type ScreenName } from './route-table.ts';

/** A screen module's loader: the module exports the screen's component under the screen's name. */
type ScreenLoaders = { [Name in ScreenName]: () => Promise<Record<Name, ComponentType>> };

/** Every screen's module, loaded on first use (a chunk of its own). */
const screenModules: ScreenLoaders = {
  BoltsScreen: () => import('../features/eda/BoltsScreen.tsx'),
  CaseScreen: () => import('../features/eda/CaseScreen.tsx'),
  ClusterScreen: () => import('../features/cluster/ClusterScreen.tsx'),
  CommitScreen: () => import('../features/commits/CommitScreen.tsx'),
  EdaLandingScreen: () => import('../features/eda/EdaLandingScreen.tsx'),
  FlowScreen: () => import('../features/eda/FlowScreen.tsx'),
  JobLogsScreen: () => import('../features/logs/JobLogsScreen.tsx'),
  JobsScreen: () => import('../features/jobs/JobsScreen.tsx'),
  LatestCommitRedirect: () => import('../features/repos/LatestCommitRedirect.tsx'),
  LineageScreen: () => import('../features/lineage/LineageScreen.tsx'),
  NotFoundScreen: () => import('../features/errors/NotFoundScreen.tsx'),
  OAuthCallbackScreen: () => import('../features/auth/OAuthCallbackScreen.tsx'),
  PipelineEditorScreen: () => import('../features/pipeline-editor/PipelineEditorScreen.tsx'),
  PipelineLogsScreen: () => import('../features/logs/PipelineLogsScreen.tsx'),
  PipelinesScreen: () => import('../features/pipelines/PipelinesScreen.tsx'),
  ProjectDefaultsScreen: () => import('../features/defaults/ProjectDefaultsScreen.tsx'),
  ProjectScreen: () => import('../features/projects/ProjectScreen.tsx'),
  ReposScreen: () => import('../features/repos/ReposScreen.tsx'),
  SecretsScreen: () => import('../features/secrets/SecretsScreen.tsx'),
  SetupScreen: () => import('../features/eda/SetupScreen.tsx'),
  SubJobsScreen: () => import('../features/jobs/SubJobsScreen.tsx'),
  TrialDetailScreen: () => import('../features/trials/TrialDetailScreen.tsx'),
  TrialsCompareScreen: () => import('../features/trials/TrialsCompareScreen.tsx'),
  TrialsScreen: () => import('../features/trials/TrialsScreen.tsx'),
  UpdateBoltScreen: () => import('../features/eda/UpdateBoltScreen.tsx'),
  UploadScreen: () => import('../features/upload/UploadScreen.tsx'),
};

/** Route loaders that start a screen's first requests with `deps` while its code loads. */
const screenLoaders: Partial<Record<ScreenName, (deps: RouteLoaderDeps) => LoaderFunction>> = {
  CommitScreen: commitRouteLoader,
  JobLogsScreen: jobLogsRouteLoader,
  ReposScreen: reposRouteLoader,
};

/**
 * A screen's component, loaded by the router (route `lazy`) before it renders the route, in
 * parallel with the route's loader, so no Suspense fallback stands in between.
 */
function loadScreen<Name extends ScreenName>(name: Name): () => Promise<ComponentType> {
  return async () => (await screenModules[name]())[name];
}

/**
 * Every route of the app: the route table's, in its order, then a catch-all to /not-found.
 * Loaders start a screen's first requests with `deps` while its code loads.
 */
export const screenRoutes = (deps: RouteLoaderDeps): RouteObject[] => {
  const route = ({ path, screen }: (typeof screenRouteTable)[number]): RouteObject => ({
    path,
    lazy: { Component: loadScreen(screen) },
    loader: screenLoaders[screen]?.(deps),
  });
  return [
    // The project shell (top bar, side navigation, breadcrumbs) frames every project and
    // lineage screen; its code loads beside the screen's.
    {
      lazy: { Component: loadProjectShell },
      // A screen's error shows inside the shell: the navigation stays, no dead end.
      children: screenRouteTable
        .filter(({ path }) => isProjectShellPath(path))
        .map((entry) => ({ ...route(entry), errorElement: <RouteErrorBoundary /> })),
    },
    ...screenRouteTable.filter(({ path }) => !isProjectShellPath(path)).map(route),
    { path: '*', element: <Navigate to="/not-found" replace /> },
  ];
};

const loadProjectShell = async () => (await import('./shell/ProjectShell.tsx')).ProjectShell;

function RootLayout() {
  const { pathname } = useLocation();
  // Token expiry is checked on every path change (spec section 4).
  useEffect(() => {
    checkTokenExpiry();
  }, [pathname]);
  useTelemetryTracking();
  const signInReturn = pathname.startsWith('/oauth/callback');
  // The project shell draws its own header, with the project's part of the bar.
  const framed = /^\/(project|lineage)\/[^/]+/.test(pathname);
  return (
    <UncaughtErrorGate>
      {signInReturn || framed ? null : <AppHeader />}
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
    </UncaughtErrorGate>
  );
}

/**
 * The route table handed to the router: one layout with the error boundary, and the page spinner
 * shown until the first route's screen code has loaded.
 */
export const appRoutes = (deps: RouteLoaderDeps): RouteObject[] => [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorBoundary />,
    HydrateFallback: PageLoader,
    children: screenRoutes(deps),
  },
];
