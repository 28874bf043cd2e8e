import { List, Typography } from 'antd';
import { testIds } from '../../test-ids.ts';
import type { SpecProblem } from './json-positions.ts';

/** The problems of a spec, listed under its editor (they are also marked inline). */
export function ProblemList({ problems }: { problems: readonly SpecProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <List
      size="small"
      data-testid={testIds.specError}
      dataSource={problems as SpecProblem[]}
      renderItem={(p) => (
        <List.Item>
          <Typography.Text type="danger">{p.message}</Typography.Text>
        </List.Item>
      )}
    />
  );
}
