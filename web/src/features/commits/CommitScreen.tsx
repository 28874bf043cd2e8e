import { Button, Flex, Typography } from 'antd';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { testIds } from '../../test-ids.ts';
import {
  PanelResizeHandle,
  ResizablePanel,
  ResizablePanels,
} from '../../ui/ResizablePanels/index.ts';
import { Tabs } from '../../ui/Tabs/index.ts';
import { DiffView } from '../diff/DiffView.tsx';
import { FileBrowser } from '../files/FileBrowser.tsx';
import { useBranches } from '../repos/api.ts';
import { defaultBranch } from '../repos/default-branch.ts';
import { useProjectParams } from '../repos/route-params.ts';
import { useCommit } from './api.ts';
import { BranchSelector } from './BranchSelector.tsx';
import { CommitDetails } from './CommitDetails.tsx';
import { CommitList } from './CommitList.tsx';
import styles from './CommitScreen.module.css';
import { CreateBranchModal } from './CreateBranchModal.tsx';
import { Screen } from '../../ui/Screen/index.ts';
import { paths } from '../pipelines/paths.ts';

/** The path of the repo this commit route is under (`/project/p/repos/r` or `/lineage/p/repos/r`). */
function repoBasePath(pathname: string): string {
  const index = pathname.indexOf('/commit/');
  return index === -1 ? pathname : pathname.slice(0, index);
}

const encodePath = (path: string) =>
  path.split('/').filter(Boolean).map(encodeURIComponent).join('/');

/**
 * A repo's commit: branch selector and commit list on the left; on the right (the split is
 * resizable and remembered) the commit's facts
 * and two tabs, its files (`?view=files`, the default) and its changes (`?view=changes`, with
 * `&compare=<commit>` for another commit than the parent).
 */
export function CommitScreen() {
  const { projectId, repoId, commitId, filePath } = useProjectParams();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const basePath = repoBasePath(useLocation().pathname);
  const commit = useCommit(projectId, repoId, commitId);
  const branches = useBranches(projectId, repoId);
  const [branchModal, setBranchModal] = useState(false);
  const [pickedBranch, setPickedBranch] = useState('');
  if (commit.error) throw commit.error;
  if (branches.error) throw branches.error;

  const branch =
    pickedBranch ||
    commit.data?.commit.branch?.name ||
    defaultBranch(branches.data ?? [])?.branch.name ||
    '';
  const commitPath = (id: string, path = '') =>
    `${basePath}/commit/${encodeURIComponent(id)}${path ? `/${encodePath(path)}` : ''}`;
  const view = search.get('view') === 'changes' ? 'changes' : 'files';
  // A pipeline writes its output commits: they link to the job that made them and take no upload.
  const output = commit.data?.origin?.kind === 'AUTO';
  const base = basePath.startsWith('/lineage/') ? 'lineage' : 'project';
  const compareId = search.get('compare') ?? '';

  return (
    <Screen>
      <Flex align="baseline" gap={16}>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {repoId}
        </Typography.Title>
        {output ? null : <Link to={`${basePath}/upload`}>Upload files</Link>}
      </Flex>
      <ResizablePanels saveId="commit-history">
        <ResizablePanel id="history" defaultSize="28" minSize="16" className={styles.history}>
          <section aria-label="Commit history" data-testid={testIds.commitHistoryPanel}>
            <Flex gap={8}>
              <BranchSelector
                branches={branches.data ?? []}
                value={branch}
                onSelect={(info) => {
                  setPickedBranch(info.branch.name);
                  if (info.head) navigate(commitPath(info.head.id));
                }}
              />
              <Button
                data-testid={testIds.createBranchButton}
                onClick={() => setBranchModal(true)}
                disabled={!commitId}
              >
                New branch
              </Button>
            </Flex>
            <CommitList
              project={projectId}
              repo={repoId}
              branch={branch}
              selectedId={commitId}
              onSelect={(id) => navigate(commitPath(id))}
            />
          </section>
        </ResizablePanel>
        <PanelResizeHandle aria-label="Resize the commit history" />
        <ResizablePanel id="commit" defaultSize="72" minSize="40" className={styles.commit}>
          <section aria-label="Commit">
            {commit.data ? (
              <CommitDetails
                info={commit.data}
                commitTo={(id) => commitPath(id)}
                project={projectId}
                repo={repoId}
                jobTo={
                  output
                    ? paths.jobLogs(projectId, repoId, commit.data.commit.id, undefined, base)
                    : undefined
                }
                onRemoved={(headId) => navigate(headId ? commitPath(headId) : `${basePath}/latest`)}
              />
            ) : null}
            <Tabs
              aria-label="Commit views"
              tabs={[
                { id: 'files', label: <span data-testid={testIds.commitFilesTab}>Files</span> },
                { id: 'changes', label: <span data-testid={testIds.commitDiffTab}>Changes</span> },
              ]}
              selectedId={view}
              onSelect={(id) => {
                const next = new URLSearchParams(search);
                if (id === 'files') next.delete('view');
                else next.set('view', id);
                setSearch(next);
              }}
            >
              {view === 'changes' ? (
                <DiffView
                  project={projectId}
                  repo={repoId}
                  commitId={commitId}
                  parentId={commit.data?.parentCommit?.id ?? null}
                  compareId={compareId}
                  onCompareChange={(id) => {
                    const next = new URLSearchParams(search);
                    if (id) next.set('compare', id);
                    else next.delete('compare');
                    setSearch(next);
                  }}
                />
              ) : (
                <FileBrowser
                  project={projectId}
                  repo={repoId}
                  commitId={commitId}
                  path={filePath}
                  pathTo={(path) => commitPath(commitId, path) + (path.endsWith('/') ? '/' : '')}
                  branch={commit.data?.commit.branch?.name || branch}
                  onCommitted={(id) => navigate(commitPath(id))}
                  commitTo={(id, path) => commitPath(id, path)}
                />
              )}
            </Tabs>
          </section>
        </ResizablePanel>
      </ResizablePanels>
      <CreateBranchModal
        open={branchModal}
        onClose={() => setBranchModal(false)}
        project={projectId}
        repo={repoId}
        commitId={commitId}
      />
    </Screen>
  );
}
