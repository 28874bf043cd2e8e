import { Suspense, useEffect, type ComponentType } from 'react';
import { Navigate, Outlet, useLocation, type LoaderFunction, type RouteObject } from 'react-router';
import { checkTokenExpiry } from '../features/auth/session.ts';
import { commitRouteLoader } from '../features/commits/commit-route-loader.ts';
import { RouteErrorBoundary } from '../features/errors/RouteErrorBoundary.tsx';
import { UncaughtErrorGate } from '../features/errors/UncaughtErrorGate.tsx';
import { useTelemetryTracking } from '../features/telemetry/useTelemetryTracking.ts';
import { AppHeader } from './AppHeader.tsx';
import { PageLoader } from './PageLoader.tsx';
import type { RouteLoaderDeps } from './route-loader-deps.ts';

type LazyScreen = () => Promise<ComponentType>;

/**
 * A screen loaded on first use, from a module's named export. The router loads it (route
 * `lazy`) before rendering the route, in parallel with the route's loader, so no Suspense
 * fallback stands in between.
 */
function lazyScreen<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M & string,
): LazyScreen {
  return async () => (await load())[name] as ComponentType;
}

const screens = {
  Landing: lazyScreen(() => import('../features/eda/EdaLandingScreen.tsx'), 'EdaLandingScreen'),
  Project: lazyScreen(() => import('../features/projects/ProjectScreen.tsx'), 'ProjectScreen'),
  Repos: lazyScreen(() => import('../features/repos/ReposScreen.tsx'), 'ReposScreen'),
  LatestCommit: lazyScreen(
    () => import('../features/repos/LatestCommitRedirect.tsx'),
    'LatestCommitRedirect',
  ),
  Commit: lazyScreen(() => import('../features/commits/CommitScreen.tsx'), 'CommitScreen'),
  Upload: lazyScreen(() => import('../features/upload/UploadScreen.tsx'), 'UploadScreen'),
  Pipelines: lazyScreen(
    () => import('../features/pipelines/PipelinesScreen.tsx'),
    'PipelinesScreen',
  ),
  Jobs: lazyScreen(() => import('../features/jobs/JobsScreen.tsx'), 'JobsScreen'),
  SubJobs: lazyScreen(() => import('../features/jobs/SubJobsScreen.tsx'), 'SubJobsScreen'),
  PipelineLogs: lazyScreen(
    () => import('../features/logs/PipelineLogsScreen.tsx'),
    'PipelineLogsScreen',
  ),
  JobLogs: lazyScreen(() => import('../features/logs/JobLogsScreen.tsx'), 'JobLogsScreen'),
  Secrets: lazyScreen(() => import('../features/secrets/SecretsScreen.tsx'), 'SecretsScreen'),
  Defaults: lazyScreen(
    () => import('../features/defaults/ProjectDefaultsScreen.tsx'),
    'ProjectDefaultsScreen',
  ),
  Lineage: lazyScreen(() => import('../features/lineage/LineageScreen.tsx'), 'LineageScreen'),
  PipelineEditor: lazyScreen(
    () => import('../features/pipeline-editor/PipelineEditorScreen.tsx'),
    'PipelineEditorScreen',
  ),
  Flow: lazyScreen(() => import('../features/eda/FlowScreen.tsx'), 'FlowScreen'),
  Case: lazyScreen(() => import('../features/eda/CaseScreen.tsx'), 'CaseScreen'),
  UpdateBolt: lazyScreen(() => import('../features/eda/UpdateBoltScreen.tsx'), 'UpdateBoltScreen'),
  Setup: lazyScreen(() => import('../features/eda/SetupScreen.tsx'), 'SetupScreen'),
  Bolts: lazyScreen(() => import('../features/eda/BoltsScreen.tsx'), 'BoltsScreen'),
  Trials: lazyScreen(() => import('../features/trials/TrialsScreen.tsx'), 'TrialsScreen'),
  TrialsCompare: lazyScreen(
    () => import('../features/trials/TrialsCompareScreen.tsx'),
    'TrialsCompareScreen',
  ),
  TrialDetail: lazyScreen(
    () => import('../features/trials/TrialDetailScreen.tsx'),
    'TrialDetailScreen',
  ),
  Cluster: lazyScreen(() => import('../features/cluster/ClusterScreen.tsx'), 'ClusterScreen'),
  NotFound: lazyScreen(() => import('../features/errors/NotFoundScreen.tsx'), 'NotFoundScreen'),
  OAuthCallback: lazyScreen(
    () => import('../features/auth/OAuthCallbackScreen.tsx'),
    'OAuthCallbackScreen',
  ),
};

function route(path: string, screen: LazyScreen, loader?: LoaderFunction): RouteObject {
  return { path, lazy: { Component: screen }, loader };
}

/** A repo's upload, latest-commit and commit/file routes, under the console or the lineage. */
function repoRoutes(repoPath: string, deps: RouteLoaderDeps): RouteObject[] {
  return [
    route(`${repoPath}/upload`, screens.Upload),
    route(`${repoPath}/latest`, screens.LatestCommit),
    route(`${repoPath}/commit/:commitId/*`, screens.Commit, commitRouteLoader(deps)),
  ];
}

/** Pipeline logs and both forms of job (and datum) logs, under the console or the lineage. */
function logRoutes(projectPath: string): RouteObject[] {
  return [
    route(`${projectPath}/logs/pipelines/:pipelineId/logs`, screens.PipelineLogs),
    route(`${projectPath}/pipelines/:pipelineId/jobs/:jobId/logs`, screens.JobLogs),
    route(`${projectPath}/pipelines/:pipelineId/jobs/:jobId/logs/datum/:datumId`, screens.JobLogs),
    route(`${projectPath}/jobs/:jobId/pipeline/:pipelineId/logs`, screens.JobLogs),
    route(`${projectPath}/jobs/:jobId/pipeline/:pipelineId/logs/datum/:datumId`, screens.JobLogs),
  ];
}

/**
 * Every route of the app, in the spec's match order (section 2). Loaders start a screen's first
 * requests with `deps` while its code loads.
 */
export const screenRoutes = (deps: RouteLoaderDeps): RouteObject[] => [
  // Pipeline editor
  route('/lineage/:projectId/create/pipeline', screens.PipelineEditor),
  route('/lineage/:projectId/update/pipeline/:pipelineId', screens.PipelineEditor),
  route('/lineage/:projectId/duplicate/pipeline/:pipelineId', screens.PipelineEditor),
  // Project view
  route('/project/:projectId', screens.Project),
  route('/project/:projectId/repos/:tabId?', screens.Repos),
  route('/project/:projectId/pipelines/:tabId?', screens.Pipelines),
  route('/project/:projectId/jobs/subjobs', screens.SubJobs),
  route('/project/:projectId/jobs/:tabId?', screens.Jobs),
  ...repoRoutes('/project/:projectId/repos/:repoId', deps),
  route('/project/:projectId/defaults', screens.Defaults),
  route('/project/:projectId/secrets', screens.Secrets),
  route('/project/:projectId/trials', screens.Trials),
  route('/project/:projectId/trials/compare', screens.TrialsCompare),
  route('/project/:projectId/trials/:trialId', screens.TrialDetail),
  ...logRoutes('/project/:projectId'),
  // Lineage view
  route('/lineage/:projectId', screens.Lineage),
  route('/lineage/:projectId/repos/:repoId', screens.Lineage),
  route('/lineage/:projectId/pipelines/:pipelineId/:tabId?', screens.Lineage),
  ...repoRoutes('/lineage/:projectId/repos/:repoId', deps),
  ...logRoutes('/lineage/:projectId'),
  // Benchmarking shell
  route('/flow/:name?', screens.Flow),
  route('/case/:name?', screens.Case),
  route('/updatebolt/:name?', screens.UpdateBolt),
  route('/setup', screens.Setup),
  route('/cluster', screens.Cluster),
  route('/not-found', screens.NotFound),
  route('/oauth/callback', screens.OAuthCallback),
  route('/', screens.Landing),
  route('/flows', screens.Landing),
  route('/bolt', screens.Bolts),
  { path: '*', element: <Navigate to="/not-found" replace /> },
];

function RootLayout() {
  const { pathname } = useLocation();
  // Token expiry is checked on every path change (spec section 4).
  useEffect(() => {
    checkTokenExpiry();
  }, [pathname]);
  useTelemetryTracking();
  const signInReturn = pathname.startsWith('/oauth/callback');
  return (
    <UncaughtErrorGate>
      {signInReturn ? null : <AppHeader />}
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
