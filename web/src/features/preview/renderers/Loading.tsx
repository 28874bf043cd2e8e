import { Alert, Spin } from 'antd';
import type { ReactNode } from 'react';

/** Spinner while loading, the error if any, else the content. */
export function Loading({
  pending,
  error,
  children,
}: {
  pending: boolean;
  error: Error | null;
  children: () => ReactNode;
}) {
  if (error) return <Alert type="error" showIcon message={error.message} />;
  if (pending) return <Spin />;
  return <>{children()}</>;
}
