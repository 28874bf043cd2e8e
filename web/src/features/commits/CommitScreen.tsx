import { Flex, Typography } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { FileBrowser } from '../files/FileBrowser.tsx';
import { useBranches } from '../repos/api.ts';
import { defaultBranch } from '../repos/default-branch.ts';
import { useProjectParams } from '../repos/route-params.ts';
import { useCommit } from './api.ts';
import { BranchSelector } from './BranchSelector.tsx';
import { CommitList } from './CommitList.tsx';

/** The path of the repo this commit route is under (`/project/p/repos/r` or `/lineage/p/repos/r`). */
function repoBasePath(pathname: string): string {
  const index = pathname.indexOf('/commit/');
  return index === -1 ? pathname : pathname.slice(0, index);
}

/** A repo's commit: branch selector and commit list on the left, the commit's files on the right. */
export function CommitScreen() {
  const { projectId, repoId, commitId, filePath } = useProjectParams();
  const navigate = useNavigate();
  const basePath = repoBasePath(useLocation().pathname);
  const commit = useCommit(projectId, repoId, commitId);
  const branches = useBranches(projectId, repoId);
  if (commit.error) throw commit.error;
  if (branches.error) throw branches.error;

  const branch =
    commit.data?.commit.branch?.name || defaultBranch(branches.data ?? [])?.branch.name || '';
  const commitPath = (id: string) => `${basePath}/commit/${encodeURIComponent(id)}`;

  return (
    <main style={{ padding: 24 }}>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {repoId}
      </Typography.Title>
      <Flex gap={24} align="flex-start">
        <section aria-label="Commits" style={{ width: 360, flexShrink: 0 }}>
          <BranchSelector
            branches={branches.data ?? []}
            value={branch}
            onSelect={(info) => {
              if (info.head) navigate(commitPath(info.head.id));
            }}
          />
          <CommitList
            project={projectId}
            repo={repoId}
            branch={branch}
            selectedId={commitId}
            onSelect={(id) => navigate(commitPath(id))}
          />
        </section>
        <section aria-label="Files" style={{ flex: 1, minWidth: 0 }}>
          <FileBrowser
            project={projectId}
            repo={repoId}
            commitId={commitId}
            path={filePath}
            pathTo={(path) =>
              `${commitPath(commitId)}/${path.split('/').filter(Boolean).map(encodeURIComponent).join('/')}`
            }
          />
        </section>
      </Flex>
    </main>
  );
}
