import { Alert, Button, Checkbox, Col, Flex, Row, Spin, Typography } from 'antd';
import { Suspense, lazy, useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { createPipelineV2, type ApiClient } from '@ivory/api';
import { testIds } from '../../test-ids.ts';
import { FullPageModal } from '../../ui/FullPageModal/index.ts';
import { ConfirmModal } from '../../ui/Modal/index.ts';
import { StatusBanner } from '../../ui/StatusBanner/index.ts';
import { useToast } from '../../ui/Toast/index.ts';
import { usePipeline } from '../pipelines/api.ts';
import { paths } from '../pipelines/paths.ts';
import { prettyJson } from '../pipelines/pretty-json.ts';
import { usePipelineSpecSchema, useSubmitPipeline } from './api.ts';
import { DatumPreview } from './DatumPreview.tsx';
import { ProblemList } from './ProblemList.tsx';
import { useDryRun } from './useDryRun.ts';

const SpecEditor = lazy(() => import('./SpecEditor.tsx'));

export type EditorMode = 'create' | 'update' | 'duplicate';

export function editorMode(pathname: string): EditorMode {
  if (/\/update\/pipeline\//.test(pathname)) return 'update';
  if (/\/duplicate\/pipeline\//.test(pathname)) return 'duplicate';
  return 'create';
}

export function newPipelineSpec(project: string): string {
  return JSON.stringify(
    {
      pipeline: { name: 'my-pipeline', project: { name: project } },
      description: '',
      input: { pfs: { repo: 'samples', glob: '/*' } },
      transform: { image: 'alpine:3', cmd: ['sh', '-c', 'cp -r /pfs/samples/* /pfs/out/'] },
    },
    null,
    2,
  );
}

/** A copy of a user spec under a new name (`<name>-copy`). */
export function duplicateSpec(userSpecJson: string, name: string): string {
  try {
    const spec = JSON.parse(userSpecJson) as { pipeline?: { name?: string } };
    spec.pipeline = { ...spec.pipeline, name: `${name}-copy` };
    return JSON.stringify(spec, null, 2);
  } catch {
    return userSpecJson;
  }
}

/**
 * Create, update or duplicate a pipeline from its JSON spec, checked by dry runs as you type; the
 * datums its input would make are listed before it is created (DatumPreview).
 */
export function PipelineEditorScreen() {
  const params = useParams();
  const project = params.projectId ?? '';
  const pipelineId = params.pipelineId ?? '';
  const location = useLocation();
  const mode = editorMode(location.pathname);
  const navigate = useNavigate();
  const toast = useToast();
  const existing = usePipeline(project, mode === 'create' ? '' : pipelineId);
  const schema = usePipelineSpecSchema();
  const submit = useSubmitPipeline(project);
  const [text, setText] = useState<string | null>(
    mode === 'create' ? newPipelineSpec(project) : null,
  );
  // The spec as the editor opened it: typing away from it makes leaving ask first.
  const [original, setOriginal] = useState<string | null>(text);
  const [confirmingLeave, setConfirmingLeave] = useState(false);
  const [reprocess, setReprocess] = useState(false);

  useEffect(() => {
    if (text !== null || !existing.data) return;
    const user = prettyJson(existing.data.userSpecJson);
    const opened = mode === 'duplicate' ? duplicateSpec(user, pipelineId) : user;
    setText(opened);
    setOriginal(opened);
  }, [existing.data, mode, pipelineId, text]);
  const dirty = text !== null && text !== original;

  const update = mode === 'update';
  const run = useCallback(
    (client: ApiClient, spec: string, signal: AbortSignal) =>
      createPipelineV2(client, { specJson: spec, update, dryRun: true }, signal),
    [update],
  );
  const dryRun = useDryRun(text ?? '', run, text !== null);
  const title =
    mode === 'create'
      ? 'Create pipeline'
      : mode === 'update'
        ? `Update ${pipelineId}`
        : `Duplicate ${pipelineId}`;

  // Back to where the user was; opened directly, to the lineage (the pipeline when there is one).
  const leave = () => {
    if (location.key !== 'default') navigate(-1);
    else
      navigate(
        mode === 'create' ? paths.lineage(project) : paths.lineagePipeline(project, pipelineId),
      );
  };
  // Escape, × and Cancel: a typed spec is not thrown away without asking.
  const cancel = () => {
    if (dirty) setConfirmingLeave(true);
    else leave();
  };

  const onSubmit = () => {
    if (text === null) return;
    submit.mutate(
      { specJson: text, update, reprocess },
      {
        onSuccess: (effective) => {
          let name = pipelineId;
          try {
            name =
              (JSON.parse(effective) as { pipeline?: { name?: string } }).pipeline?.name ?? name;
          } catch {
            // keep the route's name
          }
          toast({ content: update ? `Pipeline ${name} updated` : `Pipeline ${name} created` });
          navigate(paths.lineagePipeline(project, name));
        },
        onError: (error) => toast({ content: error.message, type: 'error' }),
      },
    );
  };

  return (
    <FullPageModal open title="Pipeline Editor" onClose={cancel}>
      <div style={{ padding: '16px 24px' }}>
        <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          <Flex gap={8} align="center" wrap>
            {update ? (
              <Checkbox checked={reprocess} onChange={(e) => setReprocess(e.target.checked)}>
                Reprocess all datums
              </Checkbox>
            ) : null}
            <Button onClick={cancel}>Cancel</Button>
            <Button
              type="primary"
              data-testid={testIds.specSubmit}
              loading={submit.isPending}
              disabled={text === null || dryRun.problems.length > 0 || dryRun.checking}
              onClick={onSubmit}
            >
              {update ? 'Update pipeline' : 'Create pipeline'}
            </Button>
          </Flex>
        </Flex>
        {submit.isPending ? (
          <StatusBanner variant="updating">
            {update ? `Updating pipeline ${pipelineId}…` : 'Creating the pipeline…'}
          </StatusBanner>
        ) : null}
        {existing.error ? <Alert type="error" message={existing.error.message} /> : null}
        {submit.error ? (
          <Alert type="error" message={submit.error.message} style={{ marginBottom: 8 }} />
        ) : null}
        <Row gutter={16}>
          <Col xs={24} lg={12}>
            <Typography.Title level={5}>Spec</Typography.Title>
            {text === null ? (
              <Spin />
            ) : (
              <Suspense fallback={<Spin tip="Loading editor" />}>
                <SpecEditor
                  value={text}
                  onChange={setText}
                  schema={schema.data ?? null}
                  problems={dryRun.problems}
                />
              </Suspense>
            )}
            <ProblemList problems={dryRun.problems} />
          </Col>
          <Col xs={24} lg={12}>
            <Typography.Title level={5}>
              Effective spec {dryRun.checking ? <Spin size="small" /> : null}
            </Typography.Title>
            <pre
              data-testid={testIds.effectiveSpec}
              style={{
                height: 480,
                overflow: 'auto',
                background: 'var(--ivory-code-bg)',
                padding: 8,
                margin: 0,
              }}
            >
              {prettyJson(dryRun.effective)}
            </pre>
            {dryRun.effective ? <DatumPreview effective={dryRun.effective} /> : null}
          </Col>
        </Row>
      </div>
      <ConfirmModal
        open={confirmingLeave}
        title="Discard your changes?"
        text="The spec you typed has not been submitted. Leaving the editor throws it away."
        confirmText="Discard"
        cancelText="Keep editing"
        onCancel={() => setConfirmingLeave(false)}
        onConfirm={() => {
          setConfirmingLeave(false);
          leave();
        }}
      />
    </FullPageModal>
  );
}
