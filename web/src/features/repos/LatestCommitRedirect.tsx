import { Button } from 'antd';
import { Navigate, useNavigate } from 'react-router';
import { testIds } from '../../test-ids.ts';
import { EmptyState } from '../../ui/EmptyState/index.ts';
import { PageLoader } from '../../ui/PageLoader/PageLoader.tsx';
import { useBranches } from './api.ts';
import { defaultBranch } from './default-branch.ts';
import { useProjectParams } from './route-params.ts';
import { Screen } from '../../ui/Screen/index.ts';

/** `…/repos/:repoId/latest`: goes to the head commit of master (or the first branch). */
export function LatestCommitRedirect() {
  const { projectId, repoId } = useProjectParams();
  const branches = useBranches(projectId, repoId);
  const navigate = useNavigate();
  if (branches.error) throw branches.error;
  if (branches.isPending) return <PageLoader />;

  const head = defaultBranch(branches.data)?.head;
  if (!head)
    return (
      <Screen>
        <EmptyState
          data-testid={testIds.emptyState}
          title={`Repo ${repoId} has no commits yet`}
          hint="Upload files to make its first commit."
          action={
            <Button type="primary" onClick={() => void navigate('../upload', { relative: 'path' })}>
              Upload files
            </Button>
          }
        />
      </Screen>
    );
  return <Navigate to={`../commit/${encodeURIComponent(head.id)}`} relative="path" replace />;
}
