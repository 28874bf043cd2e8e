import {
  ApiError,
  GrpcCode,
  listCommits,
  repoMessage,
  type ApiClient,
  type CommitInfo,
  collect,
} from '@ivory/api';

/** The most repos one ListRepoHeads call names (the platform's limit is 1,000). */
const MAX_BATCH = 500;

interface Waiting {
  repo: string;
  resolve: (head: CommitInfo | null) => void;
  reject: (error: unknown) => void;
}

/** Platforms found without ListRepoHeads (a Pachyderm cluster): their rows ask one by one. */
const withoutHeads = new WeakSet<ApiClient>();
/** Per client and project, the repos asked for in the current task, not yet sent. */
const pending = new WeakMap<ApiClient, Map<string, Waiting[]>>();

/** A repo's newest commit on any branch, by ListCommit {number: 1} (any platform has it). */
async function newestCommit(client: ApiClient, project: string, repo: string) {
  const [newest] = await listCommits(client, { project, repo, number: 1 });
  return newest ?? null;
}

/** Failures that say nothing about whether the platform has ListRepoHeads. */
const passing: ReadonlySet<number> = new Set([
  GrpcCode.CANCELLED,
  GrpcCode.DEADLINE_EXCEEDED,
  GrpcCode.UNAVAILABLE,
  GrpcCode.UNAUTHENTICATED,
]);

/**
 * Whether a failed ListRepoHeads means the platform has no such call: Ivory's proxy answers 12
 * for a method it lacks, a Pachyderm gateway 404 (5), and a gateway behind a proxy may word a
 * 404 otherwise (2): anything but a passing failure.
 */
const isMissingMethod = (error: unknown) => !(error instanceof ApiError && passing.has(error.code));

async function send(client: ApiClient, project: string, batch: Waiting[]): Promise<void> {
  const names = [...new Set(batch.map((waiting) => waiting.repo))];
  try {
    const heads = new Map<string, CommitInfo | null>();
    for (let start = 0; start < names.length; start += MAX_BATCH) {
      const lines = await collect(client, 'pfs_v2.API/ListRepoHeads', {
        repos: names.slice(start, start + MAX_BATCH).map((repo) => repoMessage({ project, repo })),
      });
      for (const line of lines) if (line.repo) heads.set(line.repo.name, line.head ?? null);
    }
    // A repo the answer leaves out (gone, or not readable by the caller) has no commit to show.
    for (const waiting of batch) waiting.resolve(heads.get(waiting.repo) ?? null);
  } catch (error) {
    // The rows still get their last commits, one call each; and later pages too, without
    // trying the batch again, unless the failure passes.
    if (isMissingMethod(error)) withoutHeads.add(client);
    for (const waiting of batch)
      newestCommit(client, project, waiting.repo).then(waiting.resolve, waiting.reject);
  }
}

/**
 * A repo's newest commit (the repos list's "Last commit"). The rows asking in the same task (a
 * table page rendering its cells) share one ListRepoHeads call; where the platform has no such
 * call (a Pachyderm cluster behind cluster mode: 12, or 404) each row asks ListCommit
 * {number: 1} itself, from then on without trying the batch again (a failure that passes, such
 * as 14, falls back for that batch only).
 */
export function loadRepoHead(
  client: ApiClient,
  project: string,
  repo: string,
): Promise<CommitInfo | null> {
  if (withoutHeads.has(client)) return newestCommit(client, project, repo);
  return new Promise((resolve, reject) => {
    const byProject = pending.get(client) ?? new Map<string, Waiting[]>();
    pending.set(client, byProject);
    const batch = byProject.get(project) ?? [];
    if (batch.length === 0) {
      byProject.set(project, batch);
      // Sent once the current task is over: every cell rendered in it has asked by then.
      setTimeout(() => {
        byProject.delete(project);
        void send(client, project, batch);
      });
    }
    batch.push({ repo, resolve, reject });
  });
}
