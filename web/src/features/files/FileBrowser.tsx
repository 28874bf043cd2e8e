import { Flex, Spin } from 'antd';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { fileUrl, type FileInfo } from '@ivory/api';
import { useApi } from '../../app/api-context.tsx';
import { useFileInfo, useFolderEntries } from './api.ts';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { FileList } from './FileList.tsx';
import { FilePreview } from './FilePreview.tsx';
import { filePathOf, folderPath, parentFolder } from './file-path.ts';

/**
 * The files of a commit at a route path: a folder path lists that folder; a file path lists its
 * folder and previews the file. `pathTo` builds the route of a path.
 */
export function FileBrowser({
  project,
  repo,
  commitId,
  path,
  pathTo,
}: {
  project: string;
  repo: string;
  commitId: string;
  /** The route's file path splat ('' for the root). */
  path: string;
  pathTo: (path: string) => string;
}) {
  const client = useApi();
  const navigate = useNavigate();
  const target = filePathOf(path);
  const targetInfo = useFileInfo(project, repo, commitId, target);

  const selectedFile = targetInfo.data?.fileType === 'FILE' ? targetInfo.data : null;
  const folder = selectedFile ? parentFolder(target) : folderPath(path);
  const waitingForTarget = target !== '/' && targetInfo.isPending;

  const urlOf = useCallback(
    (info: FileInfo, download = false) =>
      fileUrl({ project, repo, commitId, path: info.file.path, download }, client.baseUrl),
    [client.baseUrl, project, repo, commitId],
  );

  if (targetInfo.error) throw targetInfo.error;
  if (waitingForTarget) return <Spin />;
  return (
    <Flex vertical gap={12}>
      <Breadcrumbs path={folder} pathTo={pathTo} />
      <Flex gap={16} align="flex-start">
        <div style={{ flex: 1, minWidth: 0 }}>
          <FolderListing
            folder={{ project, repo, commitId, path: folder }}
            selectedPath={selectedFile?.file.path ?? ''}
            onOpen={(info) => navigate(pathTo(info.file.path))}
            downloadUrl={(info) => urlOf(info, true)}
          />
        </div>
        {selectedFile ? (
          <div style={{ width: '40%' }}>
            <FilePreview
              info={selectedFile}
              url={urlOf(selectedFile)}
              downloadUrl={urlOf(selectedFile, true)}
            />
          </div>
        ) : null}
      </Flex>
    </Flex>
  );
}

function FolderListing({
  folder,
  selectedPath,
  onOpen,
  downloadUrl,
}: {
  folder: { project: string; repo: string; commitId: string; path: string };
  selectedPath: string;
  onOpen: (info: FileInfo) => void;
  downloadUrl: (info: FileInfo) => string;
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
      onOpen={onOpen}
      downloadUrl={downloadUrl}
    />
  );
}
