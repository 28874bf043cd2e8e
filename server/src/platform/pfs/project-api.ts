// The project methods of pfs_v2.API: create, inspect, list and delete projects, and the
// per-project repo summaries.
import { pfs_v2 } from '@ivory/api/proto';
import { int64 } from '../wire.ts';
import { typedStream, typedUnary } from '../typed-method.ts';
import type { PfsApiContext } from './pfs-api-context.ts';
import { projectNameOf, projectPickerNamesOrAll } from './pfs-refs.ts';

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
    'InspectProjectV2',
    typedUnary(pfs_v2.InspectProjectV2RequestSchema, async (req) => {
      return {
        info: messages.projectInfo(store.getProject(projectNameOf(req.project))),
        defaultsJson: '{}',
      };
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
      store.deleteProject(projectNameOf(req.project), req.force);
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
