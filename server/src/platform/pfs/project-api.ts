// The project methods of pfs_v2.API: create, inspect, list and delete projects, and the
// per-project repo summaries.
import { pfs_v2 } from '@ivory/api/proto';
import { failedPrecondition } from '../../errors.ts';
import { int64 } from '../wire.ts';
import { typedStream, typedUnary } from '../typed-method.ts';
import type { MethodRegistry } from '../platform.ts';
import type { PfsApiContext } from './pfs-api-context.ts';
import type { PfsMessages } from './pfs-messages.ts';
import type { PfsStore } from './pfs-store.ts';
import { projectNameOf, projectPickerNamesOrAll } from './pfs-refs.ts';
import { repoLabel } from './pfs-store-repos.ts';

/** Registers the project methods of pfs_v2.API. */
export function registerProjectApi(api: PfsApiContext): void {
  const { store, messages, add } = api;

  add(
    'CreateProject',
    typedUnary(pfs_v2.CreateProjectRequestSchema, async (req) => {
      store.createProject(projectNameOf(req.project), req.description, req.update);
      return {};
    }),
  );

  add(
    'InspectProject',
    typedUnary(pfs_v2.InspectProjectRequestSchema, async (req) => {
      return messages.projectInfo(store.getProject(projectNameOf(req.project)));
    }),
  );

  add(
    'ListProject',
    typedStream(pfs_v2.ListProjectRequestSchema, async function* () {
      for (const project of store.listProjects()) yield messages.projectInfo(project);
    }),
  );

  add(
    'DeleteProject',
    typedUnary(pfs_v2.DeleteProjectRequestSchema, async (req) => {
      // As pachd: never with repos in it, `force` or not (delete them first).
      const name = projectNameOf(req.project);
      store.getProject(name);
      const repos = store.listRepos({ type: null, projects: [name] });
      if (repos.length > 0)
        throw failedPrecondition(
          `cannot delete project ${name}: ${repos
            .map((repo) => `repo ${repoLabel(repo)} still exists`)
            .join('\n')}`,
        );
      store.deleteProject(name, false);
      return {};
    }),
  );

  add(
    'ReposSummary',
    typedUnary(pfs_v2.ReposSummaryRequestSchema, async (req) => {
      const names = projectPickerNamesOrAll(req.projects, () =>
        store.listProjects().map((project) => project.name),
      );
      return {
        summaries: names.map((name) => {
          store.getProject(name);
          const repos = store.listRepos({ type: 'user', projects: [name] });
          return {
            project: { name },
            userRepoCount: int64(repos.length),
            sizeBytes: int64(repos.reduce((total, repo) => total + store.repoSize(repo), 0)),
          };
        }),
      };
    }),
  );
}

/**
 * InspectProjectV2: the project and its pipeline defaults as set (pps's SetProjectDefaults; "{}"
 * when none). Registered once pps is open, which keeps the defaults.
 */
export function registerInspectProjectV2(
  methods: MethodRegistry,
  deps: { store: PfsStore; messages: PfsMessages; projectDefaults: (project: string) => string },
): void {
  methods.set(
    'pfs_v2.API/InspectProjectV2',
    typedUnary(pfs_v2.InspectProjectV2RequestSchema, async (req) => {
      const project = deps.store.getProject(projectNameOf(req.project));
      return {
        info: deps.messages.projectInfo(project),
        defaultsJson: deps.projectDefaults(project.name),
      };
    }),
  );
}
