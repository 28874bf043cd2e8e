import { Card, Col, Input, List, Row, Statistic, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { testIds } from '../../test-ids.ts';
import { useProjects } from '../projects/api.ts';
import { LandingScreen as ProjectsList } from '../projects/LandingScreen.tsx';
import { flowsOf, useBolts, useCases, usePipelines } from './api.ts';
import { BoltsTable } from './BoltsScreen.tsx';
import { Screen } from '../../ui/Screen/index.ts';

const matches = (query: string, ...values: Array<string | undefined>) =>
  query === '' || values.some((value) => value?.toLowerCase().includes(query));

/**
 * `/` and `/flows`: the benchmarking overview (bolts, flows and cases with counts and one
 * search), and below it the console's projects list (imported from features/projects).
 */
export function EdaLandingScreen() {
  const [search, setSearch] = useState('');
  const query = search.trim().toLowerCase();
  const bolts = useBolts();
  const pipelines = usePipelines();
  const cases = useCases();
  const projects = useProjects();
  const flows = useMemo(() => flowsOf(pipelines.data?.items ?? []), [pipelines.data]);

  const shownBolts = (bolts.data ?? []).filter((bolt) =>
    matches(query, bolt.name, bolt.description),
  );
  const shownFlows = flows.filter((flow) =>
    matches(query, flow.name, ...flow.stages.map((stage) => stage.pipeline)),
  );
  const shownCases = (cases.data ?? []).filter((item) =>
    matches(query, item.name, item.bolt, ...Object.values(item.labels)),
  );

  return (
    <Screen>
      <section data-testid={testIds.edaLanding}>
        <Typography.Title level={2}>Benchmarking</Typography.Title>
        <Input.Search
          data-testid={testIds.edaSearch}
          placeholder="Search bolts, flows and cases"
          aria-label="Search bolts, flows and cases"
          allowClear
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          style={{ maxWidth: 420, marginBottom: 16 }}
        />
        <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
          <Col xs={12} lg={6}>
            <Card size="small">
              <Statistic title="Bolts" value={shownBolts.length} loading={bolts.isPending} />
            </Card>
          </Col>
          <Col xs={12} lg={6}>
            <Card size="small">
              <Statistic title="Flows" value={shownFlows.length} loading={pipelines.isPending} />
            </Card>
          </Col>
          <Col xs={12} lg={6}>
            <Card size="small">
              <Statistic title="Cases" value={shownCases.length} loading={cases.isPending} />
            </Card>
          </Col>
          <Col xs={12} lg={6}>
            <Card size="small">
              {/* The console's projects are listed at the foot of this page. */}
              <Statistic
                title={<a href="#projects">Projects</a>}
                value={projects.data?.length ?? 0}
                loading={projects.isPending}
              />
            </Card>
          </Col>
        </Row>
        <Typography.Title level={3}>
          <Link to="/bolt">Bolts</Link>
        </Typography.Title>
        <BoltsTable
          bolts={shownBolts}
          loading={bolts.isPending}
          emptyText={
            query !== '' && (bolts.data ?? []).length > 0 ? (
              'No bolt matches the search.'
            ) : (
              <span>
                No bolts yet: create one on the <Link to="/bolt">Bolts</Link> page.
              </span>
            )
          }
        />
        <Row gutter={16} style={{ marginTop: 16 }}>
          <Col span={12}>
            <Typography.Title level={3}>
              <Link to="/flow">Flows</Link>
            </Typography.Title>
            <List
              bordered
              loading={pipelines.isPending}
              dataSource={shownFlows}
              locale={{
                emptyText:
                  pipelines.data?.available === false
                    ? 'No flows yet: the pipeline engine is not available.'
                    : 'No flows yet.',
              }}
              renderItem={(flow) => (
                <List.Item data-testid={testIds.edaFlowRow}>
                  <Link to={`/flow/${encodeURIComponent(flow.name)}`}>{flow.name}</Link>
                  <span>{flow.stages.length} stages</span>
                </List.Item>
              )}
            />
          </Col>
          <Col span={12}>
            <Typography.Title level={3}>
              <Link to="/case">Cases</Link>
            </Typography.Title>
            <List
              bordered
              loading={cases.isPending}
              dataSource={shownCases}
              locale={{ emptyText: 'No cases yet.' }}
              renderItem={(item) => (
                <List.Item data-testid={testIds.edaCaseRow}>
                  <Link to={`/case/${encodeURIComponent(item.name)}`}>{item.name}</Link>
                  <Tag>{item.bolt}</Tag>
                </List.Item>
              )}
            />
          </Col>
        </Row>
      </section>
      <ProjectsList />
    </Screen>
  );
}
