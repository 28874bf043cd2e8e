import { useParams } from 'react-router';

/** Params of any route under `/project/:projectId` or `/lineage/:projectId`. */
export function useProjectParams() {
  const params = useParams();
  return {
    projectId: params.projectId ?? '',
    repoId: params.repoId ?? '',
    commitId: params.commitId ?? '',
    /** The file path splat of commit routes, '' for the root folder. */
    filePath: params['*'] ?? '',
  };
}
