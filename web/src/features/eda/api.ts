import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ApiError,
  UPLOAD_PROJECT_ID,
  createProject,
  inspectCommit,
  inspectProject,
  listBranches,
  listCommits,
  listRepos,
  listTrials,
  type ApiClient,
  type Trial,
  type CommitInfo,
  type JobInfo,
  type PipelineInfo,
  type ProjectInfo,
  type RepoInfo,
  type RequestOf,
  type ResponseOf,
  type ServerStreamPath,
  collect,
} from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { PPS_POLL_MS, queryKeys } from '../../data/query-keys.ts';
import { LABELS } from './labels.ts';

/** The platform project holding every bolt, flow and case. */
export const EDA_PROJECT = UPLOAD_PROJECT_ID;
export const EDA_BRANCH = 'master';

export const edaKeys = {
  all: ['eda'] as const,
  project: () => ['eda', 'project'] as const,
  bolts: () => ['eda', 'bolts'] as const,
  pipelines: () => ['eda', 'pipelines'] as const,
  jobs: () => ['eda', 'jobs'] as const,
  cases: () => ['eda', 'cases'] as const,
  results: (caseName: string) => ['eda', 'results', caseName] as const,
  caseTrials: (caseName: string) => ['eda', 'caseTrials', caseName] as const,
};

const NOT_FOUND = 5;
const UNIMPLEMENTED = 12;

/**
 * InspectProject eda, creating it on first use (answer code 5). `onCreated` runs when this call
 * created it, so listings fetched before (the console's projects list) can be refreshed.
 */
export async function ensureEdaProject(
  client: ApiClient,
  onCreated?: () => void,
): Promise<ProjectInfo | null> {
  try {
    return await inspectProject(client, EDA_PROJECT);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== NOT_FOUND) throw error;
  }
  try {
    await createProject(client, {
      project: EDA_PROJECT,
      description: 'Chip-design benchmarking: bolts, flows and cases',
    });
    onCreated?.();
  } catch (error) {
    // Another tab may have created it in between.
    if (!(error instanceof ApiError) || error.code !== 6) throw error;
  }
  return inspectProject(client, EDA_PROJECT);
}

export function useEdaProject() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: edaKeys.project(),
    queryFn: () =>
      ensureEdaProject(
        client,
        () => void queryClient.invalidateQueries({ queryKey: queryKeys.projects() }),
      ),
  });
}

export interface Bolt {
  name: string;
  description: string;
  sizeBytes: number;
  created: string | null;
  /** Head of master: the last upload, or null before the first one. */
  head: CommitInfo | null;
}

async function headCommit(client: ApiClient, repo: string, signal?: AbortSignal) {
  try {
    return await inspectCommit(
      client,
      { project: EDA_PROJECT, repo, commitId: '', branch: EDA_BRANCH },
      undefined,
      signal,
    );
  } catch (error) {
    if (error instanceof ApiError && error.code === NOT_FOUND) return null;
    throw error;
  }
}

/**
 * The repos of project eda that are bolts: user repos that are not a pipeline's output repo
 * (an output repo has its pipeline's name), nor a flow's parameters repo (`<flow>-params`, where
 * the trials of flow `<flow>` keep their parameters), and not spec or meta repos.
 */
export function boltRepos(
  repos: readonly RepoInfo[],
  pipelineNames: Iterable<string>,
  flowNames: Iterable<string> = [],
): RepoInfo[] {
  const notBolts = new Set(pipelineNames);
  for (const flow of flowNames) notBolts.add(`${flow}-params`);
  return repos.filter((info) => {
    const type = info.repo.type || 'user';
    return type === 'user' && !notBolts.has(info.repo.name);
  });
}

/** Project eda's pipelines (none while the engine answers UNIMPLEMENTED). */
async function edaPipelines(client: ApiClient, signal?: AbortSignal) {
  const pipelines = await collectOrEmpty(
    client,
    'pps_v2.API/ListPipeline',
    { projects: [{ name: EDA_PROJECT }], details: true },
    signal,
  );
  return pipelines.items;
}

/** listRepos of project eda narrowed to bolts. */
export async function listBoltRepos(client: ApiClient, signal?: AbortSignal): Promise<RepoInfo[]> {
  const [repos, pipelines] = await Promise.all([
    listRepos(client, { projects: [EDA_PROJECT], type: 'user' }, signal),
    edaPipelines(client, signal),
  ]);
  const flows = pipelines.map((pipeline) => pipelineLabels(pipeline)[LABELS.flow]).filter(Boolean);
  return boltRepos(
    repos,
    pipelines.map((pipeline) => pipeline.pipeline.name),
    flows as string[],
  );
}

export async function fetchBolts(client: ApiClient, signal?: AbortSignal): Promise<Bolt[]> {
  const repos = await listBoltRepos(client, signal);
  return Promise.all(
    repos.map(async (info: RepoInfo) => ({
      name: info.repo.name,
      description: info.description,
      sizeBytes: Number(info.details?.sizeBytes ?? info.sizeBytesUpperBound ?? 0),
      created: info.created,
      head: await headCommit(client, info.repo.name, signal),
    })),
  );
}

/** Bolts: the user repos of project eda with their master heads (after ensuring the project). */
export function useBolts() {
  const client = useApi();
  const project = useEdaProject();
  return useQuery({
    queryKey: edaKeys.bolts(),
    queryFn: ({ signal }) => fetchBolts(client, signal),
    enabled: project.isSuccess,
  });
}

/** The pipelines and jobs of the EDA shell: the platform's PipelineInfo and JobInfo. */
export type PipelineSummary = PipelineInfo;
export type JobSummary = JobInfo;

/** A stream that answers UNIMPLEMENTED (the engine is not there yet) reads as empty. */
async function collectOrEmpty<P extends ServerStreamPath>(
  client: ApiClient,
  path: P,
  body: RequestOf<P>,
  signal?: AbortSignal,
): Promise<{ items: ResponseOf<P>[]; available: boolean }> {
  try {
    return { items: await collect(client, path, body, signal), available: true };
  } catch (error) {
    if (error instanceof ApiError && error.code === UNIMPLEMENTED) {
      return { items: [], available: false };
    }
    throw error;
  }
}

export function usePipelines() {
  const client = useApi();
  return useQuery({
    queryKey: edaKeys.pipelines(),
    queryFn: ({ signal }) =>
      collectOrEmpty(
        client,
        'pps_v2.API/ListPipeline',
        { projects: [{ name: EDA_PROJECT }], details: true },
        signal,
      ),
    refetchInterval: PPS_POLL_MS,
  });
}

export function useJobs() {
  const client = useApi();
  return useQuery({
    queryKey: edaKeys.jobs(),
    queryFn: ({ signal }) =>
      collectOrEmpty(
        client,
        'pps_v2.API/ListJob',
        { projects: [{ name: EDA_PROJECT }], details: false },
        signal,
      ),
    refetchInterval: PPS_POLL_MS,
  });
}

/** A pipeline's labels: its spec's metadata.labels, overlaid by EditMetadata on the pipeline. */
export function pipelineLabels(pipeline: PipelineSummary): Record<string, string> {
  return { ...(pipeline.details?.metadata?.labels ?? {}), ...(pipeline.metadata ?? {}) };
}

export interface Flow {
  name: string;
  stages: Array<{ stage: string; pipeline: string; state: string }>;
}

/** Pipelines labelled flow=<name>, grouped per flow, stages ordered by their stage label. */
export function flowsOf(pipelines: readonly PipelineSummary[]): Flow[] {
  const flows = new Map<string, Flow>();
  for (const pipeline of pipelines) {
    const labels = pipelineLabels(pipeline);
    const name = labels[LABELS.flow];
    if (!name) continue;
    const flow = flows.get(name) ?? { name, stages: [] };
    flow.stages.push({
      stage: labels[LABELS.stage] ?? '',
      pipeline: pipeline.pipeline.name,
      state: pipeline.state ?? '',
    });
    flows.set(name, flow);
  }
  const order = new Intl.Collator(undefined, { numeric: true });
  for (const flow of flows.values()) {
    flow.stages.sort(
      (a, b) => order.compare(a.stage, b.stage) || order.compare(a.pipeline, b.pipeline),
    );
  }
  return [...flows.values()].sort((a, b) => order.compare(a.name, b.name));
}

export interface Case {
  name: string;
  /** The bolt (repo) whose branch carries the case. */
  bolt: string;
  branch: string;
  headCommitId: string | null;
  labels: Record<string, string>;
}

/** Cases: branches of bolts whose metadata has a `case` label. */
export async function fetchCases(client: ApiClient, signal?: AbortSignal): Promise<Case[]> {
  const repos = await listBoltRepos(client, signal);
  const perRepo = await Promise.all(
    repos.map(async (info) => {
      const branches = await listBranches(
        client,
        { project: EDA_PROJECT, repo: info.repo.name },
        signal,
      );
      return branches
        .filter((branch) => (branch.metadata ?? {})[LABELS.case])
        .map((branch) => ({
          name: branch.metadata[LABELS.case] ?? branch.branch.name,
          bolt: info.repo.name,
          branch: branch.branch.name,
          headCommitId: branch.head?.id ?? null,
          labels: branch.metadata,
        }));
    }),
  );
  return perRepo.flat().sort((a, b) => a.name.localeCompare(b.name));
}

export function useCases() {
  const client = useApi();
  const project = useEdaProject();
  return useQuery({
    queryKey: edaKeys.cases(),
    queryFn: ({ signal }) => fetchCases(client, signal),
    enabled: project.isSuccess,
  });
}

export interface CaseResult {
  repo: string;
  commit: CommitInfo;
}

/** Result commits of a case: recent commits in eda repos whose metadata names the case. */
export async function fetchCaseResults(
  client: ApiClient,
  caseName: string,
  signal?: AbortSignal,
): Promise<CaseResult[]> {
  const repos = await listRepos(client, { projects: [EDA_PROJECT], type: 'user' }, signal);
  const perRepo = await Promise.all(
    repos.map(async (info) => {
      const commits = await listCommits(
        client,
        { project: EDA_PROJECT, repo: info.repo.name, number: 50 },
        signal,
      ).catch(() => [] as CommitInfo[]);
      return commits
        .filter((commit) => (commit.metadata ?? {})[LABELS.case] === caseName)
        .map((commit) => ({ repo: info.repo.name, commit }));
    }),
  );
  return perRepo.flat();
}

export function useCaseResults(caseName: string) {
  const client = useApi();
  return useQuery({
    queryKey: edaKeys.results(caseName),
    queryFn: ({ signal }) => fetchCaseResults(client, caseName, signal),
    enabled: caseName !== '',
  });
}

/** The trials of a case, newest first (polled while one is still running). */
export function useCaseTrials(caseName: string) {
  const client = useApi();
  return useQuery({
    queryKey: edaKeys.caseTrials(caseName),
    queryFn: ({ signal }): Promise<Trial[]> =>
      listTrials(
        client,
        { project: EDA_PROJECT, case: caseName, orderBy: [{ field: 'created', order: 'DESC' }] },
        signal,
      ),
    enabled: caseName !== '',
    refetchInterval: (query) =>
      (query.state.data ?? []).some((trial) => !trial.finished) ? PPS_POLL_MS : false,
  });
}

/** The IDs of the runs that read a case's RTL snapshot directly (flows reading the bolt). */
export function useSnapshotRunIds(bolt: string, commitId: string | null) {
  const client = useApi();
  return useQuery({
    queryKey: ['eda', 'snapshotRuns', bolt, commitId] as const,
    queryFn: async ({ signal }) => {
      const { items } = await collectOrEmpty(
        client,
        'pps_v2.API/ListJob',
        {
          projects: [{ name: EDA_PROJECT }],
          inputCommit: [
            {
              repo: { name: bolt, type: 'user', project: { name: EDA_PROJECT } },
              id: commitId ?? '',
            },
          ],
          details: false,
        },
        signal,
      );
      return items.map((job) => job.job.id);
    },
    enabled: bolt !== '' && Boolean(commitId),
    refetchInterval: PPS_POLL_MS,
  });
}

/**
 * The job IDs of a case's runs: its trials' runs, and the runs that read its RTL snapshot
 * (a flow that reads the bolt itself; the later stages share the run's ID).
 */
export function caseRunIds(trials: readonly Trial[], snapshotRuns: readonly string[]): Set<string> {
  return new Set([...trials.map((trial) => trial.jobSetId).filter(Boolean), ...snapshotRuns]);
}

/** The console's file browser at a commit of an eda repo. */
export function commitPath(repo: string, commitId: string): string {
  return `/project/${EDA_PROJECT}/repos/${encodeURIComponent(repo)}/commit/${commitId}/`;
}
