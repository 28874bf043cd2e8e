import { useMutation } from '@tanstack/react-query';
import { Button, Flex, List, Typography } from 'antd';
import { fsck } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { testIds } from '../../test-ids.ts';
import { fsckHeadline, summariseFsck } from './fsck-report.ts';

/** 'Check storage': runs Fsck (read only, no fix) and lists each problem it streams. */
export function FsckReport() {
  const client = useApi();
  const check = useMutation({
    mutationFn: async () => summariseFsck(await fsck(client)),
  });
  const summary = check.data;
  return (
    <section aria-label="Storage check" data-testid={testIds.fsckReport}>
      <Flex vertical gap={12}>
        <Flex align="center" gap={12}>
          <Button
            type="primary"
            data-testid={testIds.fsckButton}
            loading={check.isPending}
            onClick={() => check.mutate()}
          >
            Check storage
          </Button>
          {summary ? (
            <Typography.Text
              strong
              type={summary.problems.length > 0 ? 'danger' : 'success'}
              role="status"
            >
              {fsckHeadline(summary)}
            </Typography.Text>
          ) : null}
          {check.error ? (
            <Typography.Text type="danger" role="alert">
              {check.error.message}
            </Typography.Text>
          ) : null}
        </Flex>
        {summary && summary.problems.length > 0 ? (
          <List
            size="small"
            bordered
            dataSource={summary.problems}
            renderItem={(problem) => (
              <List.Item data-testid={testIds.fsckProblem}>
                <Typography.Text code>{problem}</Typography.Text>
              </List.Item>
            )}
          />
        ) : null}
      </Flex>
    </section>
  );
}
