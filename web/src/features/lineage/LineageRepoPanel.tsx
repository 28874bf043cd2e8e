import { Descriptions, List, Typography } from 'antd';
import { Link } from 'react-router';
import { formatBytes } from '../../format/bytes.ts';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { useRecentCommits, useRepos } from '../repos/api.ts';
import { paths } from '../pipelines/paths.ts';
import type { LineageGraph } from './graph.ts';

/** A repo's side panel in the lineage: facts, newest commits and the pipelines that read it. */
export function LineageRepoPanel({
  project,
  repo,
  nodeId,
  graph,
}: {
  project: string;
  repo: string;
  nodeId: string;
  graph: LineageGraph;
}) {
  const repos = useRepos(project);
  const info = repos.data?.find((r) => r.repo.name === repo);
  const commits = useRecentCommits(project, repo, 5);
  const base = `/lineage/${encodeURIComponent(project)}/repos/${encodeURIComponent(repo)}`;
  const readers = graph.edges
    .filter((e) => e.source === nodeId)
    .map((e) => graph.nodes.find((n) => n.id === e.target))
    .filter((n) => n !== undefined);
  return (
    <div data-testid={testIds.lineageRepoPanel}>
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'description', label: 'Description', children: info?.description || '-' },
          {
            key: 'size',
            label: 'Size',
            children: formatBytes(info?.details?.sizeBytes ?? info?.sizeBytesUpperBound ?? 0),
          },
          { key: 'created', label: 'Created', children: formatTimestamp(info?.created) },
        ]}
      />
      <Typography.Paragraph>
        <Link to={`${base}/latest`}>Open files</Link> · <Link to={`${base}/upload`}>Upload</Link>
      </Typography.Paragraph>
      <Typography.Title level={5}>Read by</Typography.Title>
      <List
        size="small"
        dataSource={readers}
        locale={{ emptyText: 'No pipeline reads this repo' }}
        renderItem={(n) => (
          <List.Item>
            <Link to={paths.lineagePipeline(n.project, n.name)}>{n.name}</Link>
          </List.Item>
        )}
      />
      <Typography.Title level={5}>Recent commits</Typography.Title>
      <List
        size="small"
        loading={commits.isPending}
        dataSource={commits.data ?? []}
        locale={{ emptyText: 'No commits' }}
        renderItem={(c) => (
          <List.Item>
            <Link to={`${base}/commit/${c.commit.id}`}>{c.commit.id.slice(0, 8)}</Link>
            <Typography.Text type="secondary" ellipsis>
              {c.description || formatTimestamp(c.started)}
            </Typography.Text>
          </List.Item>
        )}
      />
    </div>
  );
}
