import { DeleteOutlined, InboxOutlined, RedoOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Empty,
  Form,
  Input,
  Modal,
  Progress,
  Typography,
  Upload,
  message,
} from 'antd';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import {
  UPLOAD_SUCCESS_MESSAGE,
  distinctUploadIds,
  finishUploads,
  resumeFile,
  startUploads,
  validateUploadPath,
  type UploadFile,
  type UploadFinishAnswer,
  type UploadItem,
} from '@ivory/api';
import { testIds } from '../../../test-ids.ts';
import { ConfirmModal } from '../../../ui/Modal/Modal.tsx';
import { edaKeys } from '../api.ts';
import { useLeaveGuard } from './leave-guard.ts';
import {
  doubledFolder,
  landingPath,
  placedItems,
  placementWarnings,
  PLUGIN_PATHS,
} from './placement.ts';
import {
  forgetSessions,
  newUploadGroup,
  recallGroup,
  recallSessions,
  rememberSessions,
} from './session-memory.ts';
import { LandedMessage } from './LandedMessage.tsx';
import { landedSummary, type LandedUpload } from './landed.ts';
import { UnfinishedUploadDialog } from './UnfinishedUploadDialog.tsx';
import { initialUploadState, progressStatus, uploadButton, uploadReducer } from './upload-state.ts';

/** Redirect after a successful finish (spec section 9). */
export const REDIRECT_AFTER_SUCCESS_MS = 1000;
export const SUCCESS_REDIRECT_PATH = '/bolt';
/** Delay between closing the modal and navigating back. */
export const MODAL_CLOSE_DELAY_MS = 200;

export const CLEAR_TITLE = 'Clear uploaded files';
export const CLEAR_TEXT = 'Are you certain you wish to delete the uploaded files?';
/** Where the trial service reads a flow plugin's description (see README, "Upload modal"). */
export const PLUGIN_DESCRIPTION_PATH = PLUGIN_PATHS[0] as string;

export interface UploadFilesModalProps {
  /** The bolt (repo in project eda) the files go to. */
  repo: string;
  /** Called MODAL_CLOSE_DELAY_MS after the modal is closed. */
  onClosed: () => void;
  /** Called REDIRECT_AFTER_SUCCESS_MS after the uploads were finished, with what landed. */
  onFinished: (landed: LandedUpload) => void;
}

/** The folder-upload modal of the benchmarking shell (spec sections 2, 4, 5, 7, 8, 9). */
export function UploadFilesModal({ repo, onClosed, onFinished }: UploadFilesModalProps) {
  const [state, dispatch] = useReducer(uploadReducer, initialUploadState);
  const [open, setOpen] = useState(true);
  const [confirmClear, setConfirmClear] = useState(false);
  /** Finishing (the Done click) in flight: the button shows a spinner meanwhile. */
  const [finishing, setFinishing] = useState(false);
  /** A run (start/chunks, or finish) in flight: guards against a second click between calls. */
  const running = useRef(false);
  const [messageApi, messageHolder] = message.useMessage();
  const queryClient = useQueryClient();
  const stateRef = useRef(state);
  stateRef.current = state;
  const timers = useRef<number[]>([]);
  const pending = useRef<UploadFile[]>([]);
  /** Set once Done committed the files: nothing is left to lose. */
  const [finished, setFinished] = useState(false);
  /** The close being asked about: the modal's own (×, Escape) or a route change. */
  const [asking, setAsking] = useState<'close' | 'route' | null>(null);
  const uploaded = state.items.filter((item) => item.status === 'success').length;
  /**
   * Beyond the spec: every /upload/start of this modal carries one group, so the server lands
   * all its folders in one commit (a session remembered from a closed tab brings its group).
   */
  const group = useRef(newUploadGroup());
  const [landed, setLanded] = useState<LandedUpload | null>(null);
  const { blocker, allowLeave } = useLeaveGuard(uploaded > 0 && !finished);

  useEffect(() => {
    if (blocker.state === 'blocked') setAsking('route');
  }, [blocker.state]);

  useEffect(() => {
    const active = timers.current;
    return () => active.forEach((timer) => window.clearTimeout(timer));
  }, []);

  const later = (callback: () => void, ms: number) => {
    timers.current.push(window.setTimeout(callback, ms));
  };

  /** rc-upload calls beforeUpload once per file of a folder: batch them into one update. */
  const addFile = useCallback((file: UploadFile) => {
    pending.current.push(file);
    if (pending.current.length === 1) {
      queueMicrotask(() => {
        const files = pending.current;
        pending.current = [];
        dispatch({ type: 'addFiles', files });
      });
    }
  }, []);

  const onProgress = useCallback(
    (items: UploadItem[]) => {
      dispatch({ type: 'progress', items });
      rememberSessions(repo, stateRef.current.path, items, group.current);
    },
    [repo],
  );

  const close = () => {
    for (const item of stateRef.current.items) item.controller?.abort();
    allowLeave();
    setOpen(false);
    later(onClosed, MODAL_CLOSE_DELAY_MS);
  };

  /** ×, Escape: asks first when uploaded files are not finished. */
  const requestClose = () => {
    if (uploaded > 0 && !finished) setAsking('close');
    else close();
  };

  // Escape while the focus is outside every dialog (Upload's button gives it up while it spins)
  // closes too; inside a dialog the dialog handles it.
  const requestCloseRef = useRef(requestClose);
  requestCloseRef.current = requestClose;
  useEffect(() => {
    if (!open || asking !== null || confirmClear) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      if (
        event.target instanceof Element &&
        event.target.closest('[role="dialog"], .ant-modal-wrap')
      )
        return;
      requestCloseRef.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [open, asking, confirmClear]);

  const stay = () => {
    if (asking === 'route' && blocker.state === 'blocked') blocker.reset();
    setAsking(null);
  };

  const discard = () => {
    forgetSessions(distinctUploadIds(stateRef.current.items));
    const wasRoute = asking === 'route';
    setAsking(null);
    if (wasRoute && blocker.state === 'blocked') {
      for (const item of stateRef.current.items) item.controller?.abort();
      allowLeave();
      blocker.proceed();
    } else close();
  };

  async function finishThenLeave() {
    if (running.current) return;
    running.current = true;
    setFinishing(true);
    const wasRoute = asking === 'route';
    try {
      // A route change goes where the user was going; a close goes to the bolts as after Done.
      const done = await finish({ redirect: !wasRoute });
      if (!done) {
        stay();
        return;
      }
      setAsking(null);
      if (wasRoute && blocker.state === 'blocked') blocker.proceed();
    } finally {
      running.current = false;
      setFinishing(false);
    }
  }

  async function upload() {
    const { path, description } = stateRef.current;
    if (validateUploadPath(path)) {
      dispatch({ type: 'setPath', value: stateRef.current.pathInput });
      return;
    }
    const recalled = recallSessions(repo, path, stateRef.current.items);
    if (recalled.size > 0) {
      dispatch({ type: 'resumeSessions', uploadIds: recalled });
      group.current = recallGroup(repo, path, stateRef.current.items) ?? group.current;
    }
    const items = placedItems(
      path,
      stateRef.current.items.map((item) => {
        const uploadId = recalled.get(item.relativePath);
        return uploadId && item.uploadId === '' ? { ...item, uploadId } : item;
      }),
    );
    const run = await startUploads({
      items,
      repo,
      path,
      description,
      group: group.current,
      onProgress,
    });
    if (run.error) void messageApi.error(run.error);
  }

  async function finish({ redirect }: { redirect: boolean }): Promise<boolean> {
    const { items, description } = stateRef.current;
    const answers: UploadFinishAnswer[] = [];
    const error = await finishUploads({
      uploadIds: items,
      description,
      onFinished: (answer) => answers.push(answer),
    });
    if (error) {
      void messageApi.error(error);
      return false;
    }
    setFinished(true);
    allowLeave();
    forgetSessions(distinctUploadIds(items));
    void queryClient.invalidateQueries({ queryKey: edaKeys.all });
    void queryClient.invalidateQueries({ queryKey: ['trials'] });
    void messageApi.success(UPLOAD_SUCCESS_MESSAGE);
    const summary = landedSummary(repo, answers);
    setLanded(summary);
    if (redirect) later(() => onFinished(summary), REDIRECT_AFTER_SUCCESS_MS);
    return true;
  }

  async function onPrimary() {
    if (running.current) return;
    running.current = true;
    const done = uploadButton(stateRef.current).label === 'Done';
    if (done) setFinishing(true);
    try {
      if (done) await finish({ redirect: true });
      else await upload();
    } finally {
      running.current = false;
      if (done) setFinishing(false);
    }
  }

  async function retry(item: UploadItem) {
    const run = await resumeFile(item, {
      onProgress: (update) => onProgress([update]),
    });
    if (run.error) void messageApi.error(run.error);
  }

  const button = uploadButton(state);
  const count = state.items.length;
  const doubled = doubledFolder(state.path, state.items);
  const warnings = placementWarnings(state.path, state.items);

  return (
    <Modal
      open={open}
      // The dialog's name (its visible heading is the Upload Files card's).
      title={<span className="ivory-visually-hidden">Upload files</span>}
      onCancel={requestClose}
      footer={null}
      width={1000}
      maskClosable={false}
      destroyOnHidden
      data-testid={testIds.edaUploadModal}
    >
      {messageHolder}
      {/* Side by side when the modal has room; stacked on a narrow window (each needs ~280 px). */}
      <div
        style={{ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'stretch', marginTop: 24 }}
      >
        <Card
          style={{ flex: '1 1 280px', minWidth: 0 }}
          title={<h2 style={{ fontSize: 16, fontWeight: 600, margin: 0 }}>Upload Files</h2>}
        >
          <Form layout="vertical" component="div">
            <Form.Item
              label="File Path"
              htmlFor="eda-upload-path"
              validateStatus={state.pathError ? 'error' : undefined}
              help={state.pathError ? <span role="alert">{state.pathError}</span> : undefined}
            >
              <Input
                id="eda-upload-path"
                placeholder="please input file path"
                value={state.pathInput}
                onChange={(event) => dispatch({ type: 'setPath', value: event.target.value })}
              />
            </Form.Item>
            <Form.Item label="Commit Message" htmlFor="eda-upload-message">
              <Input
                id="eda-upload-message"
                placeholder="please input commit message"
                value={state.descriptionInput}
                onChange={(event) =>
                  dispatch({ type: 'setDescription', value: event.target.value })
                }
              />
            </Form.Item>
            <Form.Item label="Attach Files">
              <Upload.Dragger
                directory
                multiple
                showUploadList={false}
                beforeUpload={(file) => {
                  addFile(file);
                  return Upload.LIST_IGNORE;
                }}
                data-testid={testIds.edaUploadDropzone}
              >
                <p className="ant-upload-drag-icon">
                  <InboxOutlined />
                </p>
                <p className="ant-upload-text">Click or drag a folder to this area to attach it</p>
                <p className="ant-upload-hint">
                  Please upload the user_plugin folder located in the rtl directory: under{' '}
                  <code>/rtl</code> its description lands at <code>{PLUGIN_DESCRIPTION_PATH}</code>,
                  where flows read their parameters. A picked folder named like the File Path&apos;s
                  last folder is not doubled (<code>rtl/</code> into <code>/rtl</code>).
                </p>
              </Upload.Dragger>
            </Form.Item>
          </Form>
        </Card>
        <section
          aria-label="Attached files"
          style={{ flex: '1 1 280px', minWidth: 0, display: 'flex', flexDirection: 'column' }}
        >
          <Typography.Text strong>Total: {count} files</Typography.Text>
          {doubled ? (
            <Typography.Text type="secondary" data-testid="eda-upload-doubled">
              The folder {doubled}/ goes into {state.path} as it is (not {state.path}/{doubled}/).
            </Typography.Text>
          ) : null}
          {warnings.length > 0 ? (
            <Alert
              type="warning"
              showIcon
              style={{ marginTop: 8 }}
              data-testid="eda-upload-placement"
              message="The flow will not find these files where they land"
              description={
                <ul style={{ margin: 0, paddingLeft: 16 }}>
                  {warnings.map((warning) => (
                    <li key={warning.message}>
                      {warning.files
                        .slice(0, 3)
                        .map((file) => file.landing)
                        .join(', ')}
                      {warning.files.length > 3 ? ` and ${warning.files.length - 3} more` : ''}:{' '}
                      {warning.message}
                    </li>
                  ))}
                </ul>
              }
            />
          ) : null}
          {landed ? <LandedMessage landed={landed} /> : null}
          {count === 0 ? (
            <Empty style={{ margin: 'auto' }} description="Upload your file on the left!" />
          ) : (
            <ul
              style={{
                listStyle: 'none',
                padding: 0,
                margin: '8px 0 0',
                overflowY: 'auto',
                maxHeight: 420,
              }}
            >
              {state.items.map((item) => (
                <li
                  key={item.relativePath}
                  data-testid={testIds.edaUploadItem}
                  data-status={item.status}
                  data-progress={item.progress}
                  style={{ padding: '6px 0', borderBottom: '1px solid #f0f0f0' }}
                >
                  <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
                    <div style={{ flex: 1, minWidth: 0, display: 'grid' }}>
                      <Typography.Text ellipsis title={item.relativePath}>
                        {item.relativePath}
                      </Typography.Text>
                      <Typography.Text
                        type="secondary"
                        ellipsis
                        style={{ fontSize: 12 }}
                        data-testid="eda-upload-item-target"
                      >
                        → {landingPath(state.path, item, doubled)}
                      </Typography.Text>
                    </div>
                    {item.status === 'error' && (
                      <Button
                        size="small"
                        icon={<RedoOutlined />}
                        onClick={() => void retry(item)}
                        aria-label={`Retry ${item.relativePath}`}
                      >
                        Retry
                      </Button>
                    )}
                    <Button
                      size="small"
                      type="text"
                      icon={<DeleteOutlined />}
                      aria-label={`Delete ${item.relativePath}`}
                      disabled={item.status === 'loading'}
                      onClick={() => dispatch({ type: 'remove', relativePath: item.relativePath })}
                    />
                  </div>
                  <Progress
                    size="small"
                    percent={item.progress}
                    status={progressStatus(item)}
                    aria-label={`Progress of ${item.relativePath}`}
                  />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <footer style={{ display: 'flex', justifyContent: 'flex-end', gap: 8, marginTop: 16 }}>
        <Button onClick={() => setConfirmClear(true)} disabled={finishing}>
          Clear
        </Button>
        <Button
          type="primary"
          disabled={button.disabled}
          loading={finishing}
          onClick={() => void onPrimary()}
        >
          {button.label}
        </Button>
      </footer>
      <UnfinishedUploadDialog
        open={asking !== null}
        uploaded={uploaded}
        finishing={finishing}
        onFinish={() => void finishThenLeave()}
        onDiscard={discard}
        onStay={stay}
      />
      <ConfirmModal
        open={confirmClear}
        title={CLEAR_TITLE}
        text={CLEAR_TEXT}
        confirmText="YES"
        cancelText="NO"
        onConfirm={() => {
          dispatch({ type: 'clear' });
          setConfirmClear(false);
        }}
        onCancel={() => setConfirmClear(false)}
      />
    </Modal>
  );
}
