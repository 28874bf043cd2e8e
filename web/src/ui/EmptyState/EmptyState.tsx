import { Empty } from 'antd';
import type { ReactNode } from 'react';

export type EmptyStateProps = {
  /** What is missing, e.g. "No repositories yet". */
  title: string;
  /** What to do next. */
  hint: ReactNode;
  /** The action that does it, right there (a button or link). */
  action?: ReactNode;
  'data-testid'?: string;
};

/** An empty list or screen that says what to do next and puts the action right there. */
export function EmptyState({ title, hint, action, 'data-testid': testId }: EmptyStateProps) {
  return (
    <Empty
      data-testid={testId}
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      style={{ margin: '32px 0' }}
      description={
        <>
          <strong style={{ display: 'block', color: 'var(--ivory-text)' }}>{title}</strong>
          <span>{hint}</span>
        </>
      }
    >
      {action}
    </Empty>
  );
}
