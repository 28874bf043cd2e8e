import { Input, Typography } from 'antd';
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createBranch } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { queryKeys } from '../../data/query-keys.ts';
import { Modal } from '../../ui/Modal/index.ts';
import { useToast } from '../../ui/Toast/index.ts';

const BRANCH_NAME = /^[a-zA-Z0-9_-]+$/;

/** CreateBranch {branch, head}: a new branch whose head is the given commit. */
export function CreateBranchModal({
  open,
  onClose,
  project,
  repo,
  commitId,
}: {
  open: boolean;
  onClose: () => void;
  project: string;
  repo: string;
  commitId: string;
}) {
  const client = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState('');
  const valid = BRANCH_NAME.test(name);
  const create = useMutation({
    mutationFn: () => createBranch(client, { project, repo, branch: name, headCommitId: commitId }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.branches(project, repo) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.repos(project) });
      toast({ content: `Branch ${name} created at ${commitId.slice(0, 8)}` });
      setName('');
      onClose();
    },
    onError: (error) => toast({ type: 'error', content: error.message }),
  });
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Create a branch from this commit"
      confirmText="Create branch"
      confirmDisabled={!valid}
      confirmLoading={create.isPending}
      onConfirm={() => create.mutate()}
    >
      <Typography.Paragraph>
        Head: <Typography.Text code>{commitId}</Typography.Text>
      </Typography.Paragraph>
      <Input
        aria-label="Branch name"
        placeholder="Branch name"
        value={name}
        status={name && !valid ? 'error' : undefined}
        onChange={(event) => setName(event.target.value.trim())}
      />
      {name && !valid ? (
        <Typography.Text type="danger" role="alert">
          Use letters, digits, dashes and underscores
        </Typography.Text>
      ) : null}
    </Modal>
  );
}
