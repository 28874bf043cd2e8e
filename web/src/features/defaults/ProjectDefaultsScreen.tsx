import { Alert, Button, Checkbox, Col, Flex, List, Row, Segmented, Spin, Typography } from 'antd';
import { Suspense, lazy, useCallback, useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { setClusterDefaults, setProjectDefaults, type ApiClient } from '@ivory/api';
import { testIds } from '../../test-ids.ts';
import { ConfirmModal } from '../../ui/Modal/index.ts';
import { useToast } from '../../ui/Toast/index.ts';
import { usePipelineSpecSchema } from '../pipeline-editor/api.ts';
import { ProblemList } from '../pipeline-editor/ProblemList.tsx';
import { useDryRun } from '../pipeline-editor/useDryRun.ts';
import { prettyJson } from '../pipelines/pretty-json.ts';
import { useDefaults, useSaveDefaults, type DefaultsScope } from './api.ts';
import { Screen } from '../../ui/Screen/index.ts';

const SpecEditor = lazy(() => import('../pipeline-editor/SpecEditor.tsx'));

/** Project (or cluster) defaults: edit, see the pipelines a change affects (dry run), save. */
export function ProjectDefaultsScreen() {
  const project = useParams().projectId ?? '';
  const [scope, setScope] = useState<DefaultsScope>('project');
  const defaults = useDefaults(scope, project);
  const save = useSaveDefaults(scope, project);
  const schema = usePipelineSpecSchema();
  const toast = useToast();
  const [text, setText] = useState<string | null>(null);
  const [regenerate, setRegenerate] = useState(true);
  const [reprocess, setReprocess] = useState(false);
  const [confirming, setConfirming] = useState(false);
  /** A save the server rejected: it stored nothing, the stored document is one click away. */
  const [rejected, setRejected] = useState<string | null>(null);

  useEffect(() => {
    setText(null);
    setRejected(null);
  }, [scope]);
  useEffect(() => {
    if (text === null && defaults.data !== undefined)
      setText(prettyJson(defaults.data) || '{\n  "createPipelineRequest": {}\n}');
  }, [defaults.data, text]);

  const run = useCallback(
    async (client: ApiClient, json: string) => {
      const options = { dryRun: true, regenerate, reprocess };
      const affected =
        scope === 'cluster'
          ? await setClusterDefaults(client, json, options)
          : await setProjectDefaults(client, project, json, options);
      return JSON.stringify(affected.map((p) => p.name));
    },
    [scope, project, regenerate, reprocess],
  );
  const dryRun = useDryRun(text ?? '', run, text !== null);
  const affected = useMemo(() => {
    try {
      return dryRun.effective ? (JSON.parse(dryRun.effective) as string[]) : [];
    } catch {
      return [];
    }
  }, [dryRun.effective]);
  const defaultsSchema = useMemo(
    () =>
      schema.data
        ? {
            properties: { createPipelineRequest: schema.data },
            definitions: schema.data.definitions,
          }
        : null,
    [schema.data],
  );

  return (
    <Screen>
      <Typography.Title level={2}>
        {scope === 'cluster' ? 'Cluster Defaults' : 'Project Defaults'}
      </Typography.Title>
      <Flex gap={12} align="center" wrap style={{ marginBottom: 8 }}>
        <Segmented
          value={scope}
          onChange={(v) => setScope(v as DefaultsScope)}
          options={[
            { value: 'project', label: `Project ${project}` },
            { value: 'cluster', label: 'Cluster' },
          ]}
        />
        <Checkbox checked={regenerate} onChange={(e) => setRegenerate(e.target.checked)}>
          Regenerate affected pipelines
        </Checkbox>
        <Checkbox
          checked={reprocess}
          disabled={!regenerate}
          onChange={(e) => setReprocess(e.target.checked)}
        >
          Reprocess their datums
        </Checkbox>
        <Button
          type="primary"
          disabled={text === null || dryRun.problems.length > 0 || dryRun.checking}
          loading={save.isPending}
          onClick={() => setConfirming(true)}
        >
          Save defaults
        </Button>
      </Flex>
      {defaults.error ? <Alert type="error" message={defaults.error.message} /> : null}
      {rejected ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 8 }}
          message={`Not saved: ${rejected}`}
          description="The stored defaults are unchanged."
          action={
            <Button
              size="small"
              onClick={() => {
                setRejected(null);
                setText(null);
              }}
            >
              Show stored defaults
            </Button>
          }
        />
      ) : null}
      <Row gutter={16}>
        <Col xs={24} lg={14}>
          {text === null ? (
            <Spin />
          ) : (
            <Suspense fallback={<Spin />}>
              <SpecEditor
                value={text}
                onChange={setText}
                schema={defaultsSchema}
                problems={dryRun.problems}
                testId={testIds.defaultsEditor}
                height="420px"
              />
            </Suspense>
          )}
          <ProblemList problems={dryRun.problems} />
        </Col>
        <Col xs={24} lg={10}>
          <Typography.Title level={5}>
            Pipelines affected {dryRun.checking ? <Spin size="small" /> : null}
          </Typography.Title>
          <List
            size="small"
            bordered
            data-testid={testIds.defaultsAffected}
            dataSource={affected}
            locale={{ emptyText: 'No pipeline changes' }}
            renderItem={(name) => <List.Item>{name}</List.Item>}
          />
        </Col>
      </Row>
      <ConfirmModal
        open={confirming}
        title="Save defaults"
        text={
          affected.length > 0
            ? `This changes ${affected.length} pipeline(s): ${affected.join(', ')}.`
            : 'No pipeline changes. Save?'
        }
        confirmText="Save"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          if (text === null) return;
          save.mutate(
            { json: text, options: { regenerate, reprocess } },
            {
              onSuccess: () => {
                setRejected(null);
                toast({ content: 'Defaults saved' });
                // Reload the editor from the stored defaults; the dry run then re-checks them.
                setText(null);
              },
              onError: (e) => setRejected(e.message),
            },
          );
        }}
      />
    </Screen>
  );
}
