import { Input, Typography } from 'antd';
import { useState } from 'react';
import { Modal } from '../../ui/Modal/index.ts';
import { useToast } from '../../ui/Toast/index.ts';
import { useSaveProject } from './api.ts';

const PROJECT_NAME = /^[a-zA-Z0-9_-]+$/;

/** Create a project, or edit an existing project's description (`editing` set). */
export function ProjectFormModal({
  open,
  onClose,
  editing,
}: {
  open: boolean;
  onClose: () => void;
  editing: { name: string; description: string } | null;
}) {
  const toast = useToast();
  const save = useSaveProject();
  const [name, setName] = useState(editing?.name ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const nameError =
    editing || name === '' || PROJECT_NAME.test(name)
      ? ''
      : 'Use letters, digits, dashes and underscores';
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={editing ? `Edit project ${editing.name}` : 'Create a project'}
      confirmText={editing ? 'Save' : 'Create'}
      confirmDisabled={name === '' || nameError !== ''}
      confirmLoading={save.isPending}
      onConfirm={() =>
        save.mutate(
          { project: name, description, update: editing !== null },
          {
            onSuccess: () => {
              toast({ content: editing ? `Project ${name} updated` : `Project ${name} created` });
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
          aria-label="Project name"
          value={name}
          disabled={editing !== null}
          onChange={(event) => setName(event.target.value.trim())}
        />
        {nameError ? (
          <Typography.Text type="danger" role="alert">
            {nameError}
          </Typography.Text>
        ) : null}
      </label>
      <label style={{ display: 'block' }}>
        Description
        <Input.TextArea
          aria-label="Project description"
          value={description}
          rows={3}
          onChange={(event) => setDescription(event.target.value)}
        />
      </label>
    </Modal>
  );
}
