import { Suspense, useEffect, type ComponentType } from 'react';
import {
  Outlet,
  useLocation,
  useMatches,
  type LoaderFunction,
  type RouteObject,
} from 'react-router';
import { checkTokenExpiry } from '../features/auth/session.ts';
import { commitRouteLoader } from '../features/commits/commit-route-loader.ts';
import { jobLogsRouteLoader } from '../features/logs/job-logs-route-loader.ts';
import { reposRouteLoader } from '../features/repos/repos-route-loader.ts';
import { RouteErrorBoundary } from '../features/errors/RouteErrorBoundary.tsx';
import { UncaughtErrorGate } from '../features/errors/UncaughtErrorGate.tsx';
import { useTelemetryTracking } from '../features/telemetry/useTelemetryTracking.ts';
import { AppHeader } from './AppHeader.tsx';
import { PageLoader } from '../ui/PageLoader/PageLoader.tsx';
import { MAIN_CONTENT_ID } from '../ui/Screen/index.ts';
import type { RouteLoaderDeps } from '../data/route-loader-deps.ts';
import {
  screenRouteTable,
  shellOf,
  type ScreenName,
  type ScreenRoute,
  type ShellName,
} from './route-table.ts';

/** Module loaders: each module exports its component under the module's name. */
type ModuleLoaders<Names extends string> = {
  [Name in Names]: () => Promise<Record<Name, ComponentType>>;
};

/** Every screen's module, loaded on first use (a chunk of its own). */
const screenModules: ModuleLoaders<ScreenName> = {
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

/** Every shell's layout module, loaded beside the first screen it frames. */
const shellModules: ModuleLoaders<ShellName> = {
  EdaShell: () => import('./shell/eda/EdaShell.tsx'),
  ProjectShell: () => import('./shell/ProjectShell.tsx'),
};

/**
 * A screen's or shell's component, loaded by the router (route `lazy`) before it renders the
 * route, in parallel with the route's loader, so no Suspense fallback stands in between.
 */
function loadComponent<Names extends string, Name extends Names>(
  modules: ModuleLoaders<Names>,
  name: Name,
): () => Promise<ComponentType> {
  return async () => (await modules[name]())[name];
}

/** What a shell's layout route carries in `handle`: RootLayout leaves the top bar to it. */
interface ShellHandle {
  shell: ShellName;
}

/**
 * The route table cut into runs of consecutive routes framed by the same shell (or by none), so
 * the routes keep the table's order.
 */
function shellRuns(table: readonly ScreenRoute[]) {
  const runs: Array<{ shell: ShellName | undefined; entries: ScreenRoute[] }> = [];
  for (const entry of table) {
    const shell = shellOf(entry);
    const last = runs.at(-1);
    if (last && last.shell === shell) last.entries.push(entry);
    else runs.push({ shell, entries: [entry] });
  }
  return runs;
}

/**
 * Every route of the app: the route table's, in its order, then a catch-all showing the not-found
 * page at the address typed (so it can be corrected, not lost to a redirect).
 * Loaders start a screen's first requests with `deps` while its code loads.
 */
export const screenRoutes = (deps: RouteLoaderDeps): RouteObject[] => {
  const route = ({ path, screen }: ScreenRoute): RouteObject => ({
    path,
    lazy: { Component: loadComponent(screenModules, screen) },
    loader: screenLoaders[screen]?.(deps),
  });
  return [
    // A shell (top bar, side navigation, breadcrumbs) frames the project and lineage screens, and
    // the benchmarking ones; its code loads beside the screen's. Two runs of one shell render the
    // same component in the same place, so moving between them keeps the shell's state.
    ...shellRuns(screenRouteTable).flatMap(({ shell, entries }): RouteObject[] =>
      shell
        ? [
            {
              lazy: { Component: loadComponent(shellModules, shell) },
              handle: { shell } satisfies ShellHandle,
              // A screen's error shows inside the shell: the navigation stays, no dead end.
              children: entries.map((entry) => ({
                ...route(entry),
                errorElement: <RouteErrorBoundary />,
              })),
            },
          ]
        : entries.map(route),
    ),
    { path: '*', lazy: { Component: loadComponent(screenModules, 'NotFoundScreen') } },
  ];
};

/** The first Tab stop of every page: straight to the screen, past the header and navigation. */
function SkipLink() {
  return (
    <a
      className="ivory-skip-link"
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(MAIN_CONTENT_ID)?.focus();
      }}
    >
      Skip to content
    </a>
  );
}

function RootLayout() {
  const { pathname } = useLocation();
  // Token expiry is checked on every path change (spec section 4).
  useEffect(() => {
    checkTokenExpiry();
  }, [pathname]);
  useTelemetryTracking();
  const signInReturn = pathname.startsWith('/oauth/callback');
  // A shell draws its own header (the project's with the project's part of the bar).
  const framed = useMatches().some((match) => (match.handle as ShellHandle | undefined)?.shell);
  return (
    <UncaughtErrorGate>
      <SkipLink />
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
