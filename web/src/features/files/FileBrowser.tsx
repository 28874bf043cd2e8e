import { Button, Flex, Input, Spin } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { archiveUrl, fileUrl, type FileInfo } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { testIds } from '../../test-ids.ts';
import { ConfirmModal } from '../../ui/Modal/index.ts';
import { useToast } from '../../ui/Toast/index.ts';
import {
  PanelResizeHandle,
  ResizablePanel,
  ResizablePanels,
} from '../../ui/ResizablePanels/index.ts';
import { FilePreview } from '../preview/FilePreview.tsx';
import { useDeleteFiles, useFileInfo, useFolderEntries } from './api.ts';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { FileHistory } from './FileHistory.tsx';
import { FileList } from './FileList.tsx';
import styles from './FileBrowser.module.css';
import { GlobResults } from './GlobResults.tsx';
import { filePathOf, folderPath, parentFolder } from './file-path.ts';

/**
 * The files of a commit at a route path: a folder path lists that folder; a file path lists its
 * folder and previews the file. `pathTo` builds the route of a path; `branch` is where deletions
 * land as a new commit, `onCommitted` opens that commit.
 */
export function FileBrowser({
  project,
  repo,
  commitId,
  path,
  pathTo,
  branch = '',
  onCommitted,
  commitTo,
}: {
  project: string;
  repo: string;
  commitId: string;
  /** The route's file path splat ('' for the root). */
  path: string;
  pathTo: (path: string) => string;
  branch?: string;
  onCommitted?: (commitId: string) => void;
  /** The route of a commit (history entries link there). */
  commitTo?: (commitId: string, path: string) => string;
}) {
  const client = useApi();
  const navigate = useNavigate();
  const toast = useToast();
  // A path ending in '/' (or the root) names a folder: list it at once, no InspectFile first.
  const namesFolder = path === '' || path.endsWith('/');
  const target = namesFolder ? '/' : filePathOf(path);
  const targetInfo = useFileInfo(project, repo, commitId, target);
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [pattern, setPattern] = useState('');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const deleteFiles = useDeleteFiles(project, repo);

  const selectedFile = targetInfo.data?.fileType === 'FILE' ? targetInfo.data : null;
  const folder = selectedFile ? parentFolder(target) : folderPath(path);
  const waitingForTarget = target !== '/' && targetInfo.isPending;

  const urlOf = useCallback(
    (info: FileInfo, download = false) =>
      fileUrl({ project, repo, commitId, path: info.file.path, download }, client.baseUrl),
    [client.baseUrl, project, repo, commitId],
  );
  const onCheck = useCallback((filePath: string, on: boolean) => {
    setChecked((current) => {
      const next = new Set(current);
      if (on) next.add(filePath);
      else next.delete(filePath);
      return next;
    });
  }, []);
  const selection = [...checked];

  const runDelete = () => {
    deleteFiles.mutate(
      { branch, paths: selection },
      {
        onSuccess: (newCommitId) => {
          setConfirmDelete(false);
          setChecked(new Set());
          toast({
            content: `Deleted ${selection.length} item(s) in commit ${newCommitId.slice(0, 8)}`,
          });
          onCommitted?.(newCommitId);
        },
        onError: (error) => {
          setConfirmDelete(false);
          toast({ type: 'error', content: error.message });
        },
      },
    );
  };

  if (targetInfo.error) throw targetInfo.error;
  if (waitingForTarget) return <Spin />;
  const listing = (
    <FolderListing
      folder={{ project, repo, commitId, path: folder }}
      selectedPath={selectedFile?.file.path ?? ''}
      hrefOf={(info) => pathTo(info.file.path)}
      onOpen={(info) => navigate(pathTo(info.file.path))}
      downloadUrl={(info) => urlOf(info, true)}
      checked={checked}
      onCheck={onCheck}
    />
  );
  return (
    <Flex vertical gap={12}>
      <Flex gap={8} wrap align="center">
        <Breadcrumbs path={folder} pathTo={pathTo} />
        <span style={{ flex: 1 }} />
        <Input.Search
          data-testid={testIds.fileSearch}
          aria-label="Search files by glob pattern"
          placeholder="Glob, e.g. /**/*.csv"
          allowClear
          style={{ width: 260 }}
          onSearch={(value) => setPattern(value.trim())}
        />
        <a href={archiveUrl({ project, repo, commitId, paths: [folder] }, client.baseUrl)} download>
          Download folder
        </a>
        <Button
          size="small"
          data-testid={testIds.downloadSelection}
          disabled={selection.length === 0}
          href={
            selection.length > 0
              ? archiveUrl({ project, repo, commitId, paths: selection }, client.baseUrl)
              : undefined
          }
          download
        >
          Download selected ({selection.length})
        </Button>
        <Button
          size="small"
          danger
          data-testid={testIds.deleteSelection}
          disabled={selection.length === 0 || branch === ''}
          title={branch === '' ? 'This commit is on no branch' : undefined}
          onClick={() => setConfirmDelete(true)}
        >
          Delete selected
        </Button>
      </Flex>
      {pattern ? (
        <GlobResults
          ref_={{ project, repo, commitId }}
          pattern={pattern}
          hrefOf={(info) => pathTo(info.file.path)}
          onClose={() => setPattern('')}
        />
      ) : null}
      {selectedFile ? (
        // Files | preview, resizable; the split is remembered across commits and visits.
        <ResizablePanels saveId="commit-files-preview">
          <ResizablePanel id="files" defaultSize="55" minSize="25" className={styles.filesPanel}>
            {listing}
          </ResizablePanel>
          <PanelResizeHandle aria-label="Resize the file preview" />
          <ResizablePanel
            id="preview"
            defaultSize="45"
            minSize="25"
            className={styles.previewPanel}
          >
            <Flex vertical gap={12} data-testid={testIds.filePreviewPanel} style={{ minWidth: 0 }}>
              <FilePreview
                key={selectedFile.file.path}
                info={selectedFile}
                url={urlOf(selectedFile)}
                downloadUrl={urlOf(selectedFile, true)}
              />
              <FileHistory
                key={`history:${selectedFile.file.path}`}
                project={project}
                repo={repo}
                commitId={commitId}
                path={selectedFile.file.path}
                commitTo={commitTo}
              />
            </Flex>
          </ResizablePanel>
        </ResizablePanels>
      ) : (
        listing
      )}
      <ConfirmModal
        open={confirmDelete}
        title="Delete files"
        text={`Delete ${selection.join(', ')} from branch ${branch}? This makes a new commit; older commits keep them.`}
        confirmText="Delete"
        confirmLoading={deleteFiles.isPending}
        onConfirm={runDelete}
        onCancel={() => setConfirmDelete(false)}
      />
    </Flex>
  );
}

function FolderListing({
  folder,
  selectedPath,
  hrefOf,
  onOpen,
  downloadUrl,
  checked,
  onCheck,
}: {
  folder: { project: string; repo: string; commitId: string; path: string };
  selectedPath: string;
  hrefOf: (info: FileInfo) => string;
  onOpen: (info: FileInfo) => void;
  downloadUrl: (info: FileInfo) => string;
  checked: ReadonlySet<string>;
  onCheck: (path: string, on: boolean) => void;
}) {
  const entries = useFolderEntries(folder);
  const files = useMemo(
    () => entries.data?.pages.flatMap((page) => page.files) ?? [],
    [entries.data],
  );
  const { fetchNextPage } = entries;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);

  if (entries.error) throw entries.error;
  if (entries.isPending) return <Spin />;
  return (
    <FileList
      files={files}
      selectedPath={selectedPath}
      hasMore={entries.hasNextPage}
      loadingMore={entries.isFetchingNextPage}
      onLoadMore={loadMore}
      hrefOf={hrefOf}
      onOpen={onOpen}
      downloadUrl={downloadUrl}
      checked={checked}
      onCheck={onCheck}
    />
  );
}
