import { Empty } from 'antd';
import { Navigate } from 'react-router';
import { PageLoader } from '../../app/PageLoader.tsx';
import { useBranches } from './api.ts';
import { defaultBranch } from './default-branch.ts';
import { useProjectParams } from './route-params.ts';

/** `…/repos/:repoId/latest`: goes to the head commit of master (or the first branch). */
export function LatestCommitRedirect() {
  const { projectId, repoId } = useProjectParams();
  const branches = useBranches(projectId, repoId);
  if (branches.error) throw branches.error;
  if (branches.isPending) return <PageLoader />;

  const head = defaultBranch(branches.data)?.head;
  if (!head)
    return <Empty style={{ marginTop: 64 }} description={`Repo ${repoId} has no commits yet`} />;
  return <Navigate to={`../commit/${encodeURIComponent(head.id)}`} relative="path" replace />;
}
