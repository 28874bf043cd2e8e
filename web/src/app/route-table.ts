/**
 * Which screen each path of the app opens, as plain data: the router (router.tsx) builds its
 * routes from it, and the build (vite/route-preload-plugin.ts) reads it to list, per path, the
 * chunk files of its screen so index.html can start loading them with the entry. Nothing here may
 * import app code: the build imports this module in Node.
 */

/**
 * The screens routes open. A screen's name is the name of its module file and of the component
 * that module exports (`CommitScreen` in `CommitScreen.tsx`): the build finds a screen's chunk by
 * its module's file name.
 */
export type ScreenName =
  | 'BoltsScreen'
  | 'CaseScreen'
  | 'ClusterScreen'
  | 'CommitScreen'
  | 'EdaLandingScreen'
  | 'FlowScreen'
  | 'JobLogsScreen'
  | 'JobsScreen'
  | 'LatestCommitRedirect'
  | 'LineageScreen'
  | 'NotFoundScreen'
  | 'OAuthCallbackScreen'
  | 'PipelineEditorScreen'
  | 'PipelineLogsScreen'
  | 'PipelinesScreen'
  | 'ProjectDefaultsScreen'
  | 'ProjectScreen'
  | 'ReposScreen'
  | 'SecretsScreen'
  | 'SetupScreen'
  | 'SubJobsScreen'
  | 'TrialDetailScreen'
  | 'TrialsCompareScreen'
  | 'TrialsScreen'
  | 'UpdateBoltScreen'
  | 'UploadScreen';

/** A path pattern in react-router's syntax (`:param`, `:param?`, a trailing `*`) and its screen. */
export interface ScreenRoute {
  path: string;
  screen: ScreenName;
}

/** A repo's upload, latest-commit and commit/file routes, under the console or the lineage. */
const repoRoutes = (repoPath: string): ScreenRoute[] => [
  { path: `${repoPath}/upload`, screen: 'UploadScreen' },
  { path: `${repoPath}/latest`, screen: 'LatestCommitRedirect' },
  { path: `${repoPath}/commit/:commitId/*`, screen: 'CommitScreen' },
];

/**
 * Pipeline logs and both forms of job (and datum) logs, under the console or the lineage. Under
 * the lineage, logs are the lineage screen itself, which opens them as a full-page panel over the
 * graph (`jobScreen`, `pipelineScreen`).
 */
const logRoutes = (
  projectPath: string,
  jobScreen: ScreenName = 'JobLogsScreen',
  pipelineScreen: ScreenName = 'PipelineLogsScreen',
): ScreenRoute[] => [
  { path: `${projectPath}/logs/pipelines/:pipelineId/logs`, screen: pipelineScreen },
  { path: `${projectPath}/pipelines/:pipelineId/jobs/:jobId/logs`, screen: jobScreen },
  {
    path: `${projectPath}/pipelines/:pipelineId/jobs/:jobId/logs/datum/:datumId`,
    screen: jobScreen,
  },
  { path: `${projectPath}/jobs/:jobId/pipeline/:pipelineId/logs`, screen: jobScreen },
  {
    path: `${projectPath}/jobs/:jobId/pipeline/:pipelineId/logs/datum/:datumId`,
    screen: jobScreen,
  },
];

/** Every screen route of the app, in the spec's match order (section 2). */
export const screenRouteTable: readonly ScreenRoute[] = [
  // Pipeline editor
  { path: '/lineage/:projectId/create/pipeline', screen: 'PipelineEditorScreen' },
  { path: '/lineage/:projectId/update/pipeline/:pipelineId', screen: 'PipelineEditorScreen' },
  { path: '/lineage/:projectId/duplicate/pipeline/:pipelineId', screen: 'PipelineEditorScreen' },
  // Project view
  { path: '/project/:projectId', screen: 'ProjectScreen' },
  { path: '/project/:projectId/repos/:tabId?', screen: 'ReposScreen' },
  { path: '/project/:projectId/pipelines/:tabId?', screen: 'PipelinesScreen' },
  { path: '/project/:projectId/jobs/subjobs', screen: 'SubJobsScreen' },
  { path: '/project/:projectId/jobs/:tabId?', screen: 'JobsScreen' },
  ...repoRoutes('/project/:projectId/repos/:repoId'),
  { path: '/project/:projectId/defaults', screen: 'ProjectDefaultsScreen' },
  { path: '/project/:projectId/secrets', screen: 'SecretsScreen' },
  { path: '/project/:projectId/trials', screen: 'TrialsScreen' },
  { path: '/project/:projectId/trials/compare', screen: 'TrialsCompareScreen' },
  { path: '/project/:projectId/trials/:trialId', screen: 'TrialDetailScreen' },
  ...logRoutes('/project/:projectId'),
  // Lineage view
  { path: '/lineage/:projectId', screen: 'LineageScreen' },
  { path: '/lineage/:projectId/repos/:repoId', screen: 'LineageScreen' },
  { path: '/lineage/:projectId/pipelines/:pipelineId/:tabId?', screen: 'LineageScreen' },
  ...repoRoutes('/lineage/:projectId/repos/:repoId'),
  ...logRoutes('/lineage/:projectId', 'LineageScreen', 'LineageScreen'),
  // Benchmarking shell
  { path: '/flow/:name?', screen: 'FlowScreen' },
  { path: '/case/:name?', screen: 'CaseScreen' },
  { path: '/updatebolt/:name?', screen: 'UpdateBoltScreen' },
  { path: '/setup', screen: 'SetupScreen' },
  { path: '/cluster', screen: 'ClusterScreen' },
  { path: '/not-found', screen: 'NotFoundScreen' },
  { path: '/oauth/callback', screen: 'OAuthCallbackScreen' },
  { path: '/', screen: 'EdaLandingScreen' },
  { path: '/flows', screen: 'EdaLandingScreen' },
  { path: '/bolt', screen: 'BoltsScreen' },
];

/**
 * The layouts that frame screens, named like screens (the module and the component it exports):
 * `ProjectShell` (app/shell/ProjectShell.tsx) frames the project and lineage screens, `EdaShell`
 * (features/eda/EdaShell.tsx) the benchmarking ones.
 */
export type ShellName = 'EdaShell' | 'ProjectShell';

/** The benchmarking screens: the overview, bolts, flows, cases, the upload modal and setup. */
const edaShellScreens: ReadonlySet<ScreenName> = new Set<ScreenName>([
  'EdaLandingScreen',
  'BoltsScreen',
  'FlowScreen',
  'CaseScreen',
  'UpdateBoltScreen',
  'SetupScreen',
]);

/**
 * The shell that frames a route of the table, if any: the router nests the route under the
 * shell's layout route, and the build preloads the shell's code on its path.
 */
export const shellOf = ({ path, screen }: ScreenRoute): ShellName | undefined =>
  /^\/(project|lineage)\/:projectId/.test(path)
    ? 'ProjectShell'
    : edaShellScreens.has(screen)
      ? 'EdaShell'
      : undefined;
