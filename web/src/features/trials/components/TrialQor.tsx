import { Typography } from 'antd';
import { Link } from 'react-router';
import type { Trial } from '@ivory/api';
import { color } from '../../../ui/theme/theme.ts';
import { qorSummary, type QorItem } from '../metric-catalogue.ts';
import { stageFilePath, stageReports } from '../stage-links.ts';

const toneColor: Record<QorItem['tone'], string> = {
  normal: color('text'),
  good: color('success'),
  bad: color('error'),
  muted: color('textSecondary'),
};

/**
 * The figures an engineer reads first (area, cells, logic depth, worst path delay, simulation
 * PASS/FAIL, lint warnings) and links to the run's reports (stat report, timing report, netlist).
 */
export function TrialQor({ trial }: { trial: Trial }) {
  const items = qorSummary(trial);
  const reports = stageReports(trial.stages);
  if (items.length === 0 && reports.length === 0) return null;
  const project = trial.project.name;
  return (
    <section aria-label="Quality of results" data-testid="trial-qor" style={{ marginTop: 16 }}>
      {items.length > 0 ? (
        <dl
          style={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(170px, 1fr))',
            gap: 12,
            margin: 0,
          }}
        >
          {items.map((item) => (
            <div
              key={item.key}
              data-testid="trial-qor-item"
              data-qor={item.key}
              style={{
                border: `1px solid ${color('borderSecondary')}`,
                borderRadius: 6,
                padding: '8px 12px',
                background: color('bgSubtle'),
              }}
            >
              <dt style={{ color: color('textSecondary'), fontSize: 12 }}>{item.label}</dt>
              <dd style={{ margin: 0 }}>
                <span
                  style={{ fontSize: 20, fontWeight: 600, color: toneColor[item.tone] }}
                  data-testid="trial-qor-value"
                >
                  {item.value ?? '—'}
                </span>
                {item.note ? (
                  <div style={{ fontSize: 12, color: color('textSecondary') }} title={item.note}>
                    {item.note.length > 90 ? `${item.note.slice(0, 90)}…` : item.note}
                  </div>
                ) : null}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      {reports.length > 0 ? (
        <Typography.Paragraph style={{ marginTop: 8, marginBottom: 0 }}>
          Reports:{' '}
          {reports.map(({ stage, report }, index) => (
            <span key={`${stage.name}${report.path}`}>
              {index > 0 ? ' · ' : ''}
              <Link to={stageFilePath(project, stage, report.path)} data-testid="trial-report">
                {report.label}
              </Link>
            </span>
          ))}
        </Typography.Paragraph>
      ) : null}
    </section>
  );
}
