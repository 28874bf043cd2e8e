import { Button, Flex, Input, Typography } from 'antd';
import { useState } from 'react';
import { Modal } from '../../ui/Modal/index.ts';
import { useToast } from '../../ui/Toast/index.ts';
import { useCreateRepo, useEditRepoLabels } from './api.ts';

const NAME = /^[a-zA-Z0-9_-]+$/;

export function CreateRepoModal({ project, onClose }: { project: string; onClose: () => void }) {
  const toast = useToast();
  const create = useCreateRepo(project);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const invalid = name !== '' && !NAME.test(name);
  return (
    <Modal
      open
      onClose={onClose}
      title="Create a repo"
      confirmText="Create"
      confirmDisabled={name === '' || invalid}
      confirmLoading={create.isPending}
      onConfirm={() =>
        create.mutate(
          { repo: name, description },
          {
            onSuccess: () => {
              toast({ content: `Repo ${name} created` });
              onClose();
            },
            onError: (error) => toast({ type: 'error', content: error.message }),
          },
        )
      }
    >
      <label style={{ display: 'block', marginBottom: 12 }}>
        Name
        <Input
          aria-label="Repo name"
          value={name}
          onChange={(event) => setName(event.target.value.trim())}
        />
        {invalid ? (
          <Typography.Text type="danger" role="alert">
            Use letters, digits, dashes and underscores
          </Typography.Text>
        ) : null}
      </label>
      <label style={{ display: 'block' }}>
        Description
        <Input
          aria-label="Repo description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </label>
    </Modal>
  );
}

/** Edits a repo's labels: the whole map is replaced in one EditMetadata call. */
export function EditLabelsModal({
  project,
  repo,
  labels,
  onClose,
}: {
  project: string;
  repo: string;
  labels: Record<string, string>;
  onClose: () => void;
}) {
  const toast = useToast();
  const edit = useEditRepoLabels(project);
  const [pairs, setPairs] = useState<Array<[string, string]>>(() => Object.entries(labels));
  const keys = pairs.map(([key]) => key.trim());
  const duplicate = keys.some((key, index) => key !== '' && keys.indexOf(key) !== index);
  const update = (index: number, at: 0 | 1, value: string) =>
    setPairs((current) =>
      current.map((pair, i) =>
        i === index ? (at === 0 ? [value, pair[1]] : [pair[0], value]) : pair,
      ),
    );
  return (
    <Modal
      open
      onClose={onClose}
      title={`Labels of ${repo}`}
      confirmText="Save labels"
      confirmDisabled={duplicate}
      confirmLoading={edit.isPending}
      onConfirm={() =>
        edit.mutate(
          {
            repo,
            labels: Object.fromEntries(
              pairs.filter(([key]) => key.trim() !== '').map(([key, value]) => [key.trim(), value]),
            ),
          },
          {
            onSuccess: () => {
              toast({ content: `Labels of ${repo} saved` });
              onClose();
            },
            onError: (error) => toast({ type: 'error', content: error.message }),
          },
        )
      }
    >
      <Flex vertical gap={8}>
        {pairs.map(([key, value], index) => (
          <Flex key={index} gap={8}>
            <Input
              aria-label={`Label ${index + 1} key`}
              placeholder="key"
              value={key}
              onChange={(event) => update(index, 0, event.target.value)}
            />
            <Input
              aria-label={`Label ${index + 1} value`}
              placeholder="value"
              value={value}
              onChange={(event) => update(index, 1, event.target.value)}
            />
            <Button
              aria-label={`Remove label ${index + 1}`}
              onClick={() => setPairs((current) => current.filter((_, i) => i !== index))}
            >
              ×
            </Button>
          </Flex>
        ))}
        <Button onClick={() => setPairs((current) => [...current, ['', '']])}>Add label</Button>
        {duplicate ? (
          <Typography.Text type="danger" role="alert">
            Each key may appear once
          </Typography.Text>
        ) : null}
      </Flex>
    </Modal>
  );
}
