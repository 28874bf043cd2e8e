import { Button, Flex, Typography } from 'antd';
import { useState } from 'react';
import type { CommitInfo } from '@ivory/api';
import { testIds } from '../../test-ids.ts';
import { ConfirmModal } from '../../ui/Modal/index.ts';
import { useToast } from '../../ui/Toast/index.ts';
import { useRemoveCommit } from './api.ts';
import { removalBlocked, removalText, type RemovalMode } from './commit-removal.ts';

/**
 * 'Squash commit' and 'Drop commit', each behind a confirmation that explains the effect. The
 * server's rules decide (its refusal is shown in the dialog); on success `onRemoved` gets the
 * branch's new head commit id.
 */
export function CommitActions({
  project,
  repo,
  info,
  onRemoved,
}: {
  project: string;
  repo: string;
  info: CommitInfo;
  onRemoved: (headCommitId: string) => void;
}) {
  const [mode, setMode] = useState<RemovalMode | null>(null);
  const remove = useRemoveCommit(project, repo);
  const toast = useToast();
  const close = () => {
    setMode(null);
    remove.reset();
  };
  const hint = mode ? removalBlocked(info, mode) : null;
  return (
    <Flex gap={8}>
      <Button
        size="small"
        data-testid={testIds.squashCommitButton}
        onClick={() => setMode('squash')}
      >
        Squash commit
      </Button>
      <Button
        size="small"
        danger
        data-testid={testIds.dropCommitButton}
        onClick={() => setMode('drop')}
      >
        Drop commit
      </Button>
      <ConfirmModal
        open={mode !== null}
        title={mode === 'drop' ? 'Drop commit' : 'Squash commit'}
        text={
          <span data-testid={testIds.commitRemovalText}>
            {mode ? removalText(info, mode) : ''}
            {hint ? (
              <Typography.Text type="warning" style={{ display: 'block', marginTop: 8 }}>
                {hint}
              </Typography.Text>
            ) : null}
            {remove.error ? (
              <Typography.Text
                data-testid={testIds.commitRemovalError}
                type="danger"
                style={{ display: 'block', marginTop: 8 }}
              >
                {remove.error.message}
              </Typography.Text>
            ) : null}
          </span>
        }
        confirmText={mode === 'drop' ? 'Drop' : 'Squash'}
        confirmLoading={remove.isPending}
        onCancel={close}
        onConfirm={() => {
          if (!mode) return;
          remove.mutate(
            { info, mode },
            {
              onSuccess: (headId) => {
                toast({
                  content: `Commit ${info.commit.id.slice(0, 8)} ${mode === 'drop' ? 'dropped' : 'squashed'}`,
                });
                setMode(null);
                remove.reset();
                onRemoved(headId);
              },
              onError: (error) => toast({ content: error.message, type: 'error' }),
            },
          );
        }}
      />
    </Flex>
  );
}
