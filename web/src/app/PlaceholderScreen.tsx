import { Typography } from 'antd';
import { Screen } from '../ui/Screen/index.ts';

/** A screen whose content arrives in a later issue: for now its heading only. */
export function PlaceholderScreen({ title }: { title: string }) {
  return (
    <Screen>
      <Typography.Title level={2}>{title}</Typography.Title>
    </Screen>
  );
}
