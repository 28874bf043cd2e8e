import { Typography } from 'antd';

/** A screen whose content arrives in a later issue: for now its heading only. */
export function PlaceholderScreen({ title }: { title: string }) {
  return (
    <main style={{ padding: 24 }}>
      <Typography.Title level={2}>{title}</Typography.Title>
    </main>
  );
}
