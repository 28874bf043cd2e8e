import type { Permission } from './roles.ts';

/**
 * What each /api method needs, in one table (a registered method without an entry is refused,
 * and a test fails). Permissions are pachd's auth_v2.Permission names.
 *
 * - `open`: any signed-in caller (identity, version, pure functions, token revocation).
 * - `listed`: any signed-in caller, but a streamed answer keeps only the messages about
 *   projects and repos the caller may read.
 * - `repo`: the permission on every repo the request names (a pipeline counts as its output
 *   repo); a request that names none needs it on the cluster.
 * - `project`: the permission on the project(s) the request names (else on the cluster).
 * - `cluster`: the permission on the cluster.
 * - `custom`: decided by the authorizer (creating repos and pipelines, bindings, file writes…).
 */
export type MethodNeed =
  | { kind: 'open' }
  | { kind: 'listed' }
  | { kind: 'repo'; permission: Permission }
  | { kind: 'project'; permission: Permission }
  | { kind: 'cluster'; permission: Permission }
  | { kind: 'custom'; rule: CustomRule };

export type CustomRule =
  | 'createProject'
  | 'deleteProject'
  | 'createRepo'
  | 'deleteRepo'
  | 'createBranch'
  | 'modifyFile'
  | 'createFileSet'
  | 'createPipeline'
  | 'editMetadata'
  | 'trialById'
  | 'roleBinding'
  | 'modifyRoleBinding'
  | 'egress'
  | 'setProjectDefaults'
  | 'setClusterDefaults'
  | 'runCron';

const open = { kind: 'open' } as const;
const listed = { kind: 'listed' } as const;
const repo = (permission: Permission) => ({ kind: 'repo', permission }) as const;
const project = (permission: Permission) => ({ kind: 'project', permission }) as const;
const cluster = (permission: Permission) => ({ kind: 'cluster', permission }) as const;
const custom = (rule: CustomRule) => ({ kind: 'custom', rule }) as const;

export const METHOD_NEEDS: Readonly<Record<string, MethodNeed>> = {
  // pfs_v2: projects
  'pfs_v2.API/CreateProject': custom('createProject'),
  'pfs_v2.API/InspectProject': project('PROJECT_LIST_REPO'),
  'pfs_v2.API/InspectProjectV2': project('PROJECT_LIST_REPO'),
  'pfs_v2.API/ListProject': listed,
  'pfs_v2.API/CountProject': open,
  'pfs_v2.API/DeleteProject': custom('deleteProject'),
  'pfs_v2.API/ReposSummary': project('PROJECT_LIST_REPO'),
  // repos and branches
  'pfs_v2.API/CreateRepo': custom('createRepo'),
  'pfs_v2.API/InspectRepo': repo('REPO_READ'),
  'pfs_v2.API/ListRepo': listed,
  'pfs_v2.API/CountRepo': project('PROJECT_LIST_REPO'),
  'pfs_v2.API/DeleteRepo': custom('deleteRepo'),
  'pfs_v2.API/DeleteRepos': project('PROJECT_DELETE'),
  'pfs_v2.API/CopyRepo': repo('REPO_WRITE'),
  // Ivory only: each answer line is about one repo, kept only when the caller may read it.
  'pfs_v2.API/ListRepoHeads': listed,
  'pfs_v2.API/CreateBranch': custom('createBranch'),
  'pfs_v2.API/InspectBranch': repo('REPO_LIST_BRANCH'),
  'pfs_v2.API/ListBranch': repo('REPO_LIST_BRANCH'),
  'pfs_v2.API/DeleteBranch': repo('REPO_DELETE_BRANCH'),
  'pfs_v2.API/WalkBranchProvenance': repo('REPO_LIST_BRANCH'),
  'pfs_v2.API/WalkBranchSubvenance': repo('REPO_LIST_BRANCH'),
  // commits
  'pfs_v2.API/StartCommit': repo('REPO_WRITE'),
  'pfs_v2.API/FinishCommit': repo('REPO_WRITE'),
  'pfs_v2.API/ClearCommit': repo('REPO_WRITE'),
  'pfs_v2.API/InspectCommit': repo('REPO_INSPECT_COMMIT'),
  'pfs_v2.API/ListCommit': repo('REPO_LIST_COMMIT'),
  'pfs_v2.API/SubscribeCommit': repo('REPO_LIST_COMMIT'),
  'pfs_v2.API/FindCommits': repo('REPO_LIST_COMMIT'),
  'pfs_v2.API/WalkCommitProvenance': repo('REPO_INSPECT_COMMIT'),
  'pfs_v2.API/WalkCommitSubvenance': repo('REPO_INSPECT_COMMIT'),
  'pfs_v2.API/SquashCommit': repo('REPO_DELETE_COMMIT'),
  'pfs_v2.API/DropCommit': repo('REPO_DELETE_COMMIT'),
  'pfs_v2.API/InspectCommitSet': listed,
  'pfs_v2.API/ListCommitSet': listed,
  // A commit set spans repos of any project: squashing or dropping one is an admin's call.
  'pfs_v2.API/SquashCommitSet': cluster('CLUSTER_DELETE_ALL'),
  'pfs_v2.API/DropCommitSet': cluster('CLUSTER_DELETE_ALL'),
  // files
  'pfs_v2.API/ModifyFile': custom('modifyFile'),
  'pfs_v2.API/GetFile': repo('REPO_READ'),
  'pfs_v2.API/GetFileTAR': repo('REPO_READ'),
  'pfs_v2.API/InspectFile': repo('REPO_INSPECT_FILE'),
  'pfs_v2.API/ListFile': repo('REPO_LIST_FILE'),
  'pfs_v2.API/WalkFile': repo('REPO_LIST_FILE'),
  'pfs_v2.API/GlobFile': repo('REPO_LIST_FILE'),
  'pfs_v2.API/DiffFile': repo('REPO_READ'),
  // A new file set belongs to no repo (pachd: any authenticated user); copying a file into it
  // reads the source, so each copyFile needs REPO_READ there. A setCommit is refused (3).
  'pfs_v2.API/CreateFileSet': custom('createFileSet'),
  'pfs_v2.API/GetFileSet': repo('REPO_READ'),
  'pfs_v2.API/AddFileSet': repo('REPO_WRITE'),
  // File sets are named by unguessable ids; reading one back needs AddFileSet (write).
  'pfs_v2.API/RenewFileSet': open,
  'pfs_v2.API/ComposeFileSet': open,
  'pfs_v2.API/ShardFileSet': open,
  // Egress writes on the server's disk: an admin's call, besides reading the repo.
  'pfs_v2.API/Egress': custom('egress'),
  // cluster administration
  'pfs_v2.API/DeleteAll': cluster('CLUSTER_DELETE_ALL'),
  'pfs_v2.API/ActivateAuth': cluster('CLUSTER_AUTH_ACTIVATE'),
  'pfs_v2.API/Fsck': cluster('CLUSTER_DEBUG_DUMP'),
  'pfs_v2.API/CheckStorage': cluster('CLUSTER_DEBUG_DUMP'),
  'pfs_v2.API/ListTask': cluster('CLUSTER_DEBUG_DUMP'),
  'pfs_v2.API/PutCache': cluster('CLUSTER_DEBUG_DUMP'),
  'pfs_v2.API/GetCache': cluster('CLUSTER_DEBUG_DUMP'),
  'pfs_v2.API/ClearCache': cluster('CLUSTER_DEBUG_DUMP'),
  // pps_v2: pipelines (a pipeline's permissions are its output repo's)
  'pps_v2.API/CreatePipeline': custom('createPipeline'),
  'pps_v2.API/CreatePipelineV2': custom('createPipeline'),
  'pps_v2.API/InspectPipeline': repo('REPO_READ'),
  'pps_v2.API/ListPipeline': listed,
  'pps_v2.API/DeletePipeline': repo('REPO_DELETE'),
  'pps_v2.API/DeletePipelines': project('PROJECT_DELETE'),
  'pps_v2.API/StartPipeline': repo('REPO_WRITE'),
  'pps_v2.API/StopPipeline': repo('REPO_WRITE'),
  'pps_v2.API/RerunPipeline': repo('REPO_WRITE'),
  'pps_v2.API/RunPipeline': repo('REPO_WRITE'),
  // REPO_WRITE on the pipeline, and on each cron input's repo (its ticks write there).
  'pps_v2.API/RunCron': custom('runCron'),
  'pps_v2.API/PipelinesSummary': project('PROJECT_LIST_REPO'),
  'pps_v2.API/CheckStatus': project('PROJECT_LIST_REPO'),
  // jobs and datums
  'pps_v2.API/InspectJob': repo('PIPELINE_LIST_JOB'),
  'pps_v2.API/ListJob': listed,
  'pps_v2.API/InspectJobSet': listed,
  'pps_v2.API/ListJobSet': listed,
  'pps_v2.API/SubscribeJob': repo('PIPELINE_LIST_JOB'),
  'pps_v2.API/StopJob': repo('REPO_WRITE'),
  'pps_v2.API/DeleteJob': repo('REPO_WRITE'),
  'pps_v2.API/ListDatum': repo('PIPELINE_LIST_JOB'),
  'pps_v2.API/InspectDatum': repo('PIPELINE_LIST_JOB'),
  'pps_v2.API/RestartDatum': repo('REPO_WRITE'),
  'pps_v2.API/GetLogs': repo('PIPELINE_LIST_JOB'),
  'pps_v2.API/UpdateJobState': cluster('CLUSTER_DEBUG_DUMP'),
  // secrets and defaults
  'pps_v2.API/CreateSecret': cluster('CLUSTER_CREATE_SECRET'),
  'pps_v2.API/ListSecret': cluster('CLUSTER_LIST_SECRETS'),
  'pps_v2.API/InspectSecret': cluster('SECRET_INSPECT'),
  'pps_v2.API/DeleteSecret': cluster('SECRET_DELETE'),
  'pps_v2.API/GetClusterDefaults': open,
  // Defaults are merged into specs: what they refer to is checked as if written in a spec.
  'pps_v2.API/SetClusterDefaults': custom('setClusterDefaults'),
  'pps_v2.API/GetProjectDefaults': project('PROJECT_LIST_REPO'),
  'pps_v2.API/SetProjectDefaults': custom('setProjectDefaults'),
  // cluster administration
  'pps_v2.API/GetKubeEvents': cluster('CLUSTER_GET_PACHD_LOGS'),
  'pps_v2.API/QueryLoki': cluster('CLUSTER_GET_LOKI_LOGS'),
  'pps_v2.API/ListTask': cluster('CLUSTER_DEBUG_DUMP'),
  'pps_v2.API/DeleteAll': cluster('CLUSTER_DELETE_ALL'),
  'pps_v2.API/ActivateAuth': cluster('CLUSTER_AUTH_ACTIVATE'),
  'pps_v2.API/RunLoadTest': cluster('CLUSTER_DEBUG_DUMP'),
  'pps_v2.API/RunLoadTestDefault': cluster('CLUSTER_DEBUG_DUMP'),
  // A pure function of its arguments.
  'pps_v2.API/RenderTemplate': open,
  // others
  'versionpb_v2.API/GetVersion': open,
  'admin_v2.API/InspectCluster': open,
  'metadata.API/EditMetadata': custom('editMetadata'),
  // omni_v1 trials belong to a project
  'omni_v1.API/CreateTrial': project('PROJECT_CREATE_REPO'),
  'omni_v1.API/ListTrial': project('PROJECT_LIST_REPO'),
  'omni_v1.API/CountTrial': project('PROJECT_LIST_REPO'),
  'omni_v1.API/InspectFlowPlugin': project('PROJECT_LIST_REPO'),
  'omni_v1.API/InspectTrial': custom('trialById'),
  'omni_v1.API/UpdateTrial': custom('trialById'),
  'omni_v1.API/DeleteTrial': custom('trialById'),
  'omni_v1.API/RerunTrial': custom('trialById'),
  // Which EDA tools this server can run: nothing about any project.
  'omni_v1.API/InspectEdaTools': open,
  // auth_v2
  'auth_v2.API/WhoAmI': open,
  'auth_v2.API/Authorize': open,
  'auth_v2.API/GetPermissions': open,
  'auth_v2.API/GetRolesForPermission': open,
  'auth_v2.API/GetPermissionsForPrincipal': cluster('CLUSTER_AUTH_GET_PERMISSIONS_FOR_PRINCIPAL'),
  'auth_v2.API/GetRoleBinding': custom('roleBinding'),
  'auth_v2.API/ModifyRoleBinding': custom('modifyRoleBinding'),
  'auth_v2.API/GetRobotToken': cluster('CLUSTER_AUTH_GET_ROBOT_TOKEN'),
  // Holding a token is the authority to revoke it.
  'auth_v2.API/RevokeAuthToken': open,
  'auth_v2.API/RevokeAuthTokensForUser': cluster('CLUSTER_AUTH_REVOKE_USER_TOKENS'),
};
