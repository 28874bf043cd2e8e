import { Alert, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import type { FlowPluginInfo, Trial } from '@ivory/api';
import { Modal } from '../../../ui/Modal/index.ts';
import { Select } from '../../../ui/Select/index.ts';
import { useCreateTrial, useFlowPlugin, useProjectFlows } from '../api.ts';
import { parseKeyValueLines } from '../trial-view.ts';

/** The flow's parameters with their defaults, in stage order (first stage naming one wins). */
export function flowParameters(
  plugin: FlowPluginInfo | null | undefined,
): Array<{ name: string; default: string; description: string; stage: string }> {
  const seen = new Set<string>();
  const parameters = [];
  for (const stage of plugin?.stages ?? []) {
    for (const parameter of stage.parameters) {
      if (seen.has(parameter.name)) continue;
      seen.add(parameter.name);
      parameters.push({
        name: parameter.name,
        default: parameter.default,
        description: parameter.description,
        stage: stage.name,
      });
    }
  }
  return parameters;
}

/** A form for CreateTrial: flow, case, parameters prefilled from the flow's defaults, labels. */
export function CreateTrialModal({
  project,
  initialFlow,
  initialCase,
  onClose,
  onCreated,
}: {
  project: string;
  initialFlow: string;
  initialCase: string;
  onClose: () => void;
  onCreated: (trial: Trial) => void;
}) {
  const flows = useProjectFlows(project);
  const [flow, setFlow] = useState(initialFlow);
  const [caseName, setCaseName] = useState(initialCase);
  const [values, setValues] = useState<Record<string, string>>({});
  const [extra, setExtra] = useState('');
  const [labels, setLabels] = useState('');
  const [description, setDescription] = useState('');
  const plugin = useFlowPlugin(project, flow);
  const create = useCreateTrial(project);
  const parameters = flowParameters(plugin.data);
  const flowOptions = (flows.data ?? []).map((name) => ({ value: name, label: name }));
  if (flow && !flowOptions.some((option) => option.value === flow))
    flowOptions.push({ value: flow, label: flow });

  const submit = () => {
    const filled: Record<string, string> = {};
    for (const parameter of parameters)
      filled[parameter.name] = values[parameter.name] ?? parameter.default;
    create.mutate(
      {
        flow,
        case: caseName.trim(),
        parameters: { ...filled, ...parseKeyValueLines(extra) },
        labels: parseKeyValueLines(labels),
        description: description.trim(),
      },
      { onSuccess: onCreated },
    );
  };

  return (
    <Modal
      open
      title="New trial"
      onClose={onClose}
      onConfirm={submit}
      confirmText="Create trial"
      confirmLoading={create.isPending}
      confirmDisabled={!flow}
    >
      <Form layout="vertical" component="div">
        <Form.Item label="Flow" required>
          <Select
            aria-label="Flow"
            placeholder={flows.isPending ? 'Loading flows…' : 'Pick a flow'}
            options={flowOptions}
            value={flow || undefined}
            onChange={(value) => {
              setFlow(value);
              setValues({});
            }}
          />
          {flows.isSuccess && flowOptions.length === 0 ? (
            <Typography.Text type="secondary">
              No pipeline of this project carries a <code>flow</code> label.
            </Typography.Text>
          ) : null}
        </Form.Item>
        <Form.Item label="Case" htmlFor="trial-case">
          <Input
            id="trial-case"
            value={caseName}
            onChange={(event) => setCaseName(event.target.value)}
          />
        </Form.Item>
        {flow && plugin.isPending ? <Typography.Text>Loading parameters…</Typography.Text> : null}
        {plugin.isError ? <Alert type="warning" message={plugin.error.message} /> : null}
        {parameters.map((parameter) => (
          <Form.Item
            key={parameter.name}
            label={`${parameter.name} (${parameter.stage})`}
            htmlFor={`trial-param-${parameter.name}`}
            help={parameter.description || undefined}
          >
            <Input
              id={`trial-param-${parameter.name}`}
              aria-label={`Parameter ${parameter.name}`}
              value={values[parameter.name] ?? parameter.default}
              onChange={(event) =>
                setValues((current) => ({ ...current, [parameter.name]: event.target.value }))
              }
            />
          </Form.Item>
        ))}
        <Form.Item label="More parameters (key=value per line)" htmlFor="trial-extra">
          <Input.TextArea
            id="trial-extra"
            rows={2}
            value={extra}
            onChange={(event) => setExtra(event.target.value)}
          />
        </Form.Item>
        <Form.Item label="Labels (key=value per line)" htmlFor="trial-labels">
          <Input.TextArea
            id="trial-labels"
            rows={2}
            value={labels}
            onChange={(event) => setLabels(event.target.value)}
          />
        </Form.Item>
        <Form.Item label="Description" htmlFor="trial-description">
          <Input
            id="trial-description"
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </Form.Item>
        {create.isError ? <Alert type="error" message={create.error.message} /> : null}
      </Form>
    </Modal>
  );
}
