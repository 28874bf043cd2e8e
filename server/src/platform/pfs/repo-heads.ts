import { pfs_v2 } from '@ivory/api/proto';
import { invalidArgument } from '../../errors.ts';
import { slicer } from '../event-loop.ts';
import type { MethodRegistry } from '../platform.ts';
import { typedStream } from '../typed-method.ts';
import { validateName } from './names.ts';
import type { PfsMessages } from './pfs-messages.ts';
import { repoRefOf } from './pfs-refs.ts';
import type { PfsStore } from './pfs-store.ts';
import type { CommitRow, RepoRow, RepoType } from './rows.ts';

/** The most repos one ListRepoHeads call may name (a list page names 20). */
export const MAX_REPO_HEADS = 1000;

const repoTypes = new Set<RepoType>(['user', 'spec', 'meta']);

/**
 * ListRepoHeads {repos, branch} → a stream of RepoHead {repo, head} (Ivory only; pachd has no
 * call that answers several repos' heads): one line per named repo that exists, in the order
 * named (a repo named twice answers once), `head` its newest commit on any branch (what
 * ListCommit {repo, number: 1} answers first) or, with `branch`, that branch's head; `head` is
 * null when the repo has no commit. Repos that do not exist, or lack the branch, are left out,
 * and so, with sign-in on, are the repos the caller may not read (the method is `listed`: no
 * error tells which repos exist). No repos, more than MAX_REPO_HEADS, a repo without a valid
 * name or with an unknown type, or an invalid branch name: 3.
 */
export function registerRepoHeadsApi(
  methods: MethodRegistry,
  deps: { store: PfsStore; messages: PfsMessages },
): void {
  const { store, messages } = deps;

  /** The head of `branch`, or the repo's newest commit without one; undefined: no such branch. */
  const headOf = (repo: RepoRow, branch: string): CommitRow | null | undefined => {
    if (branch) {
      const found = store.findBranch(repo, branch);
      if (!found) return undefined;
      return found.head_rowid === null ? null : store.commitByRowid(found.head_rowid);
    }
    const [newest] = store.repoCommitsPage(repo, {
      after: null,
      from: null,
      origin: null,
      reverse: false,
      limit: 1,
    });
    return newest ?? null;
  };

  methods.set(
    'pfs_v2.API/ListRepoHeads',
    typedStream(pfs_v2.ListRepoHeadsRequestSchema, async function* (req) {
      if (req.repos.length === 0) throw invalidArgument('repos is required');
      if (req.repos.length > MAX_REPO_HEADS)
        throw invalidArgument(`at most ${MAX_REPO_HEADS} repos per call (got ${req.repos.length})`);
      const branch = req.branch ? validateName('branch', req.branch) : '';
      const refs = new Map<string, ReturnType<typeof repoRefOf>>();
      for (const given of req.repos) {
        const ref = repoRefOf(given);
        if (!ref.name) throw invalidArgument('every repo needs a name');
        validateName('repo', ref.name);
        if (ref.project) validateName('project', ref.project);
        if (!repoTypes.has(ref.type)) throw invalidArgument(`unknown repo type ${ref.type}`);
        refs.set(`${ref.project}/${ref.name}/${ref.type}`, ref);
      }
      const pause = slicer();
      for (const ref of refs.values()) {
        const repo = store.findRepo(ref);
        if (!repo) continue;
        const head = headOf(repo, branch);
        if (head === undefined) continue;
        yield { repo: messages.repo(repo), head: head ? messages.commitInfo(head) : null };
        await pause();
      }
    }),
  );
}
