// The commit methods of pfs_v2.API: start, finish, inspect (and wait for), list and subscribe to
// commits, and inspect and list commit sets.
import { pfs_v2 } from '@ivory/api/proto';
import { invalidArgument, notFound } from '../../errors.ts';
import { safeNumber, typedStream, typedUnary } from '../typed-method.ts';
import { slicer } from '../event-loop.ts';
import type { PfsApiContext } from './pfs-api-context.ts';
import { branchRefOf, commitRefOf, namesCommitOf, repoRefOf } from './pfs-refs.ts';
import { resolveCommitRef } from './pfs-requests.ts';
import { commitState, type CommitRow } from './rows.ts';

const commitStates = ['COMMIT_STATE_UNKNOWN', 'STARTED', 'READY', 'FINISHING', 'FINISHED'] as const;
type WaitState = (typeof commitStates)[number];
const originKinds = ['ORIGIN_KIND_UNKNOWN', 'USER', 'AUTO', 'FSCK'] as const;

/** The name of a request's enum value (a number from binary may be outside the enum: 3). */
function enumName<T extends string>(names: readonly T[], value: number, field: string): T {
  const name = names[value];
  if (name === undefined) throw invalidArgument(`${field} must be one of ${names.join(', ')}`);
  return name;
}

/** ListCommit reads a repo's commits this many at a time. */
const listCommitPageRows = 256;

function reached(commit: CommitRow, wanted: WaitState): boolean {
  const state = commitState(commit);
  if (wanted === 'FINISHED') return state === 'FINISHED';
  if (wanted === 'FINISHING' || wanted === 'READY') return state !== 'STARTED';
  return true;
}

/** Registers the commit and commit set methods of pfs_v2.API. */
export function registerCommitApi(api: PfsApiContext): void {
  const { store, events, messages, add } = api;

  async function waitFor(
    commit: CommitRow,
    state: WaitState,
    signal: AbortSignal,
  ): Promise<CommitRow> {
    let current = commit;
    while (!reached(current, state) && !signal.aborted) {
      await events.next(signal);
      current = store.commitByRowid(commit.rowid);
      if (!current) throw notFound(`commit ${commit.id} was deleted`);
    }
    return current;
  }

  add(
    'StartCommit',
    typedUnary(pfs_v2.StartCommitRequestSchema, async (req) => {
      const branch = branchRefOf(req.branch);
      const repo = store.getRepo(branch.repo);
      const parent = namesCommitOf(req.parent)
        ? resolveCommitRef(store, commitRefOf(req.parent, branch.repo)).commit
        : null;
      const commit = store.startCommit(repo, branch.name, parent, req.description);
      return messages.commit(commit, repo);
    }),
  );

  add(
    'FinishCommit',
    typedUnary(pfs_v2.FinishCommitRequestSchema, async (req) => {
      const { commit } = resolveCommitRef(store, commitRefOf(req.commit));
      store.finishCommit(commit, req.description, req.error);
      return {};
    }),
  );

  add(
    'InspectCommit',
    typedUnary(pfs_v2.InspectCommitRequestSchema, async (req, signal) => {
      const { commit } = resolveCommitRef(store, commitRefOf(req.commit));
      const wait = enumName(commitStates, req.wait, 'wait');
      return messages.commitInfo(await waitFor(commit, wait, signal));
    }),
  );

  add(
    'ListCommit',
    typedStream(pfs_v2.ListCommitRequestSchema, async function* (req) {
      const repoRef = repoRefOf(req.repo);
      const to = namesCommitOf(req.to)
        ? resolveCommitRef(store, commitRefOf(req.to, repoRef))
        : null;
      const from = namesCommitOf(req.from)
        ? resolveCommitRef(store, commitRefOf(req.from, repoRef)).commit
        : null;
      // Without a repo of its own the listing is of the commits' repo (pachd reads it the same).
      const repo = repoRef.name ? store.getRepo(repoRef) : (to?.repo ?? store.getRepo(repoRef));
      const originKind = enumName(originKinds, req.originKind, 'originKind');
      const number = safeNumber(req.number, 'number');
      const reverse = req.reverse;
      const origin = originKind === 'ORIGIN_KIND_UNKNOWN' ? null : originKind;
      // Both walks read a page at a time (the lineage index, or the repo's commits by rowid),
      // so the first `number` commits cost about the same however long the history is.
      const commits = to
        ? (function* () {
            for (const commit of store.commitChain(to.commit, { stopAt: from, reverse }))
              if (origin === null || commit.origin === origin) yield commit;
          })()
        : (function* () {
            let after: number | null = null;
            for (;;) {
              const page = store.repoCommitsPage(repo, {
                after,
                from: from?.rowid ?? null,
                origin,
                reverse,
                limit: listCommitPageRows,
              });
              yield* page;
              if (page.length < listCommitPageRows) return;
              after = (page[page.length - 1] as CommitRow).rowid;
            }
          })();
      let sent = 0;
      const pause = slicer();
      for (const commit of commits) {
        if (number > 0 && sent >= number) break;
        yield messages.commitInfo(commit);
        sent++;
        await pause();
      }
    }),
  );

  add(
    'SubscribeCommit',
    typedStream(pfs_v2.SubscribeCommitRequestSchema, async function* (req, signal) {
      const repoRef = repoRefOf(req.repo);
      const repo = store.getRepo(repoRef);
      const branch = req.branch;
      const from = namesCommitOf(req.from)
        ? resolveCommitRef(store, commitRefOf(req.from, repoRef)).commit
        : null;
      const state = enumName(commitStates, req.state, 'state');
      const originKind = enumName(originKinds, req.originKind, 'originKind');
      const wanted = (commit: CommitRow) =>
        (!branch || commit.branch_name === branch) &&
        (originKind === 'ORIGIN_KIND_UNKNOWN' || commit.origin === originKind);
      const sent = new Set<number>();
      // Every commit at or below `floor` is sent or never will be: each round reads only the
      // commits above it (oldest first, a page at a time), not the repo's whole history.
      let floor = from?.rowid ?? 0;
      while (!signal.aborted) {
        let after: number | null = null;
        let settled = true;
        for (;;) {
          const page = store.repoCommitsPage(repo, {
            after,
            from: floor,
            origin: null,
            reverse: true,
            limit: listCommitPageRows,
          });
          const due = page.filter(
            (commit) => !sent.has(commit.rowid) && wanted(commit) && reached(commit, state),
          );
          for (const commit of page) {
            const done = sent.has(commit.rowid) || due.includes(commit) || !wanted(commit);
            settled &&= done;
            if (settled) floor = commit.rowid;
          }
          for (const commit of due) {
            sent.add(commit.rowid);
            yield messages.commitInfo(commit);
          }
          if (page.length < listCommitPageRows) break;
          after = (page[page.length - 1] as CommitRow).rowid;
        }
        for (const rowid of sent) if (rowid <= floor) sent.delete(rowid);
        await events.next(signal);
      }
    }),
  );

  add(
    'InspectCommitSet',
    typedStream(pfs_v2.InspectCommitSetRequestSchema, async function* (req, signal) {
      const id = req.commitSet?.id ?? '';
      let commits = store.commitsWithId(id);
      if (commits.length === 0) throw notFound(`commit set ${id} not found`);
      if (req.wait) {
        while (!signal.aborted && commits.some((commit) => !reached(commit, 'FINISHED'))) {
          await events.next(signal);
          commits = store.commitsWithId(id);
        }
      }
      for (const commit of commits) yield messages.commitInfo(commit);
    }),
  );

  add(
    'ListCommitSet',
    typedStream(pfs_v2.ListCommitSetRequestSchema, async function* (req) {
      const project = req.project?.name ?? '';
      if (project) store.getProject(project);
      for (const id of store.commitSetIds(project || null)) {
        yield {
          commitSet: { id },
          commits: store.commitsWithId(id).map((commit) => messages.commitInfo(commit)),
        };
      }
    }),
  );
}
