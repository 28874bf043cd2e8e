import { Alert, AutoComplete, Button, Flex, Input, Progress, Typography } from 'antd';
import { useReducer, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import {
  UPLOAD_PROJECT_ID,
  finishUploads,
  inspectCommit,
  startUploads,
  validateUploadPath,
  type UploadItem,
} from '@ivory/api';
import { useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../data/api-context.tsx';
import { queryKeys } from '../../data/query-keys.ts';
import { formatBytes } from '../../format/bytes.ts';
import { testIds } from '../../test-ids.ts';
import { ConfirmModal } from '../../ui/Modal/index.ts';
import { useBranches } from '../repos/api.ts';
import { picksFromDrop, picksFromInput } from './drop-files.ts';
import { initialUploadState, totalProgress, uploadBlocker, uploadReducer } from './upload-state.ts';
import { repoResource, useAuthorize } from '../roles/api.ts';
import { missingPermissionReason } from '../roles/permission-reasons.ts';
import { Screen } from '../../ui/Screen/index.ts';

const statusOf: Record<UploadItem['status'], 'normal' | 'active' | 'success' | 'exception'> = {
  pending: 'normal',
  normal: 'normal',
  loading: 'active',
  success: 'success',
  error: 'exception',
};

/**
 * `…/repos/:repoId/upload`: drop files or a folder, pick the branch, destination and message,
 * and send them with the chunked upload engine; the result is one new finished commit.
 */
export function UploadScreen() {
  const params = useParams();
  const projectId = params.projectId || UPLOAD_PROJECT_ID;
  const repoId = params.repoId ?? params.name ?? '';
  const { pathname } = useLocation();
  const repoBase = pathname.replace(/\/upload\/?$/, '');
  const client = useApi();
  const queryClient = useQueryClient();
  const branches = useBranches(projectId, repoId);
  const [state, dispatch] = useReducer(uploadReducer, undefined, () => initialUploadState());
  const [confirmClear, setConfirmClear] = useState(false);
  const [dragging, setDragging] = useState(false);
  const latest = useRef<UploadItem[]>([]);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement | null>(null);
  const cancelled = useRef(false);
  const mayWrite = useAuthorize(repoResource(projectId, repoId), ['REPO_WRITE']);
  const blocker =
    mayWrite.allowed === false ? missingPermissionReason(mayWrite.missing) : uploadBlocker(state);
  const running = state.phase === 'uploading' || state.phase === 'finishing';

  const run = async () => {
    cancelled.current = false;
    dispatch({ type: 'start' });
    const transport = { baseUrl: client.baseUrl };
    const result = await startUploads({
      ...transport,
      items: state.items,
      repo: repoId,
      path: state.path,
      branch: state.branch,
      projectId,
      description: state.message.trim(),
      onProgress: (items) => {
        latest.current = items;
        dispatch({ type: 'progress', items });
      },
    });
    if (cancelled.current) return;
    if (result.error) {
      dispatch({ type: 'failed', error: result.error });
      return;
    }
    dispatch({ type: 'finishing' });
    const failure = await finishUploads({
      ...transport,
      uploadIds: result.items,
      description: state.message.trim(),
    });
    if (failure) {
      dispatch({ type: 'failed', error: failure });
      return;
    }
    const head = await inspectCommit(client, {
      project: projectId,
      repo: repoId,
      commitId: '',
      branch: state.branch,
    }).catch(() => null);
    await queryClient.invalidateQueries({ queryKey: queryKeys.repo(projectId, repoId) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.repos(projectId) });
    dispatch({ type: 'done', commitId: head?.commit.id ?? null });
  };

  const cancel = () => {
    cancelled.current = true;
    for (const item of latest.current) item.controller?.abort();
    dispatch({ type: 'cancelled' });
  };

  const items = state.items;
  return (
    <Screen style={{ maxWidth: 1100 }}>
      <Typography.Title level={2}>Upload Files</Typography.Title>
      <Typography.Paragraph type="secondary">
        To repo <Link to={`${repoBase}/latest`}>{repoId}</Link> in project {projectId}
      </Typography.Paragraph>
      <Flex gap={24} align="flex-start" wrap>
        <section aria-label="Upload settings" style={{ flex: '1 1 360px' }}>
          <div
            data-testid={testIds.uploadDropzone}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={(event) => {
              event.preventDefault();
              setDragging(false);
              void picksFromDrop(event.dataTransfer).then((files) =>
                dispatch({ type: 'add', files }),
              );
            }}
            style={{
              border: `2px dashed ${dragging ? 'var(--ivory-primary)' : 'var(--ivory-border)'}`,
              borderRadius: 8,
              padding: 24,
              textAlign: 'center',
              background: dragging ? 'var(--ivory-selected)' : 'var(--ivory-bg-subtle)',
              marginBottom: 16,
            }}
          >
            <Typography.Paragraph>Drop files or a folder here, or</Typography.Paragraph>
            <Flex gap={8} justify="center">
              <Button disabled={running} onClick={() => filesInput.current?.click()}>
                Choose files
              </Button>
              <Button disabled={running} onClick={() => folderInput.current?.click()}>
                Choose a folder
              </Button>
              <input
                ref={filesInput}
                type="file"
                multiple
                hidden
                data-testid={testIds.uploadFileInput}
                disabled={running}
                onChange={(event) => {
                  dispatch({ type: 'add', files: picksFromInput(event.target.files) });
                  event.target.value = '';
                }}
              />
              <input
                ref={(input) => {
                  folderInput.current = input;
                  input?.setAttribute('webkitdirectory', '');
                }}
                type="file"
                hidden
                data-testid={testIds.uploadFolderInput}
                disabled={running}
                onChange={(event) => {
                  dispatch({ type: 'add', files: picksFromInput(event.target.files) });
                  event.target.value = '';
                }}
              />
            </Flex>
          </div>
          <label style={{ display: 'block', marginBottom: 12 }}>
            Branch
            <AutoComplete
              aria-label="Branch"
              value={state.branch}
              disabled={running}
              style={{ width: '100%' }}
              options={(branches.data ?? []).map((info) => ({ value: info.branch.name }))}
              onChange={(branch: string) => dispatch({ type: 'setBranch', branch })}
            />
          </label>
          <label style={{ display: 'block', marginBottom: 12 }}>
            Destination path
            <Input
              aria-label="Destination path"
              value={state.path}
              disabled={running}
              status={validateUploadPath(state.path) ? 'error' : undefined}
              onChange={(event) => dispatch({ type: 'setPath', path: event.target.value })}
            />
            {validateUploadPath(state.path) ? (
              <Typography.Text type="danger" role="alert">
                {validateUploadPath(state.path)}
              </Typography.Text>
            ) : null}
          </label>
          <label style={{ display: 'block', marginBottom: 12 }}>
            Commit message
            <Input.TextArea
              aria-label="Commit message"
              value={state.message}
              disabled={running}
              rows={2}
              onChange={(event) => dispatch({ type: 'setMessage', message: event.target.value })}
            />
          </label>
          <Flex gap={8}>
            <Button
              type="primary"
              data-testid={testIds.uploadSubmit}
              disabled={blocker !== null}
              title={blocker ?? undefined}
              loading={running}
              onClick={() => void run()}
            >
              Upload
            </Button>
            <Button data-testid={testIds.uploadCancel} disabled={!running} onClick={cancel}>
              Cancel
            </Button>
            <Button disabled={running || items.length === 0} onClick={() => setConfirmClear(true)}>
              Clear
            </Button>
          </Flex>
          {state.phase === 'done' ? (
            <Alert
              data-testid={testIds.uploadResult}
              style={{ marginTop: 16 }}
              type="success"
              showIcon
              message={`Uploaded ${items.length} file${items.length === 1 ? '' : 's'}`}
              description={
                state.commitId ? (
                  <>
                    In commit{' '}
                    <Link to={`${repoBase}/commit/${state.commitId}`}>{state.commitId}</Link> on{' '}
                    {state.branch}
                  </>
                ) : (
                  'The files are in a new commit.'
                )
              }
            />
          ) : null}
          {state.error ? (
            <Alert style={{ marginTop: 16 }} type="error" showIcon message={state.error} />
          ) : null}
        </section>
        <section aria-label="Files to upload" style={{ flex: '1 1 420px', minWidth: 0 }}>
          <Flex justify="space-between">
            <Typography.Text strong>Total: {items.length} files</Typography.Text>
            {running || state.phase === 'done' ? (
              <Progress percent={totalProgress(items)} size="small" style={{ width: 160 }} />
            ) : null}
          </Flex>
          {items.length === 0 ? (
            <Typography.Paragraph type="secondary">
              Upload your file on the left!
            </Typography.Paragraph>
          ) : (
            <ul style={{ listStyle: 'none', padding: 0, maxHeight: 520, overflow: 'auto' }}>
              {items.map((item) => (
                <li
                  key={item.relativePath}
                  data-testid={testIds.uploadFileRow}
                  data-status={item.status}
                  style={{
                    borderBottom: '1px solid var(--ivory-border-secondary)',
                    padding: '4px 0',
                  }}
                >
                  <Flex justify="space-between" gap={8}>
                    <span style={{ wordBreak: 'break-all' }}>{item.relativePath}</span>
                    <span>
                      {formatBytes(item.file.size)}{' '}
                      <Button
                        size="small"
                        type="text"
                        aria-label={`Remove ${item.relativePath}`}
                        disabled={running}
                        onClick={() =>
                          dispatch({ type: 'remove', relativePath: item.relativePath })
                        }
                      >
                        ×
                      </Button>
                    </span>
                  </Flex>
                  <Progress percent={item.progress} size="small" status={statusOf[item.status]} />
                </li>
              ))}
            </ul>
          )}
        </section>
      </Flex>
      <ConfirmModal
        open={confirmClear}
        title="Clear uploaded files"
        text="Are you certain you wish to delete the uploaded files?"
        confirmText="YES"
        cancelText="NO"
        onCancel={() => setConfirmClear(false)}
        onConfirm={() => {
          dispatch({ type: 'clear' });
          setConfirmClear(false);
        }}
      />
    </Screen>
  );
}
