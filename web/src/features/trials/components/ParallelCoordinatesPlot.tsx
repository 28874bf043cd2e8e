import { testIds } from '../../../test-ids.ts';
import { formatMetric } from '../trial-view.ts';
import type { ParallelCoordinates } from '../comparison.ts';

const HEIGHT = 260;
const TOP = 28;
const BOTTOM = 36;
const SIDE = 56;
const AXIS_GAP = 140;

const tick = (value: number) => formatMetric(value);

/**
 * Parallel coordinates: one vertical axis per numeric parameter plus the chosen metric (labelled
 * with its name, minimum at the bottom and maximum at the top), one polyline per trial. A
 * missing value breaks the trial's line at that axis.
 */
export function ParallelCoordinatesPlot({ plot }: { plot: ParallelCoordinates }) {
  const { axes, lines } = plot;
  if (axes.length === 0) return <p>No numeric parameters or metric to plot.</p>;
  const width = SIDE * 2 + AXIS_GAP * Math.max(axes.length - 1, 1);
  const x = (axis: number) => SIDE + AXIS_GAP * axis;
  const y = (normalised: number) => TOP + (1 - normalised) * (HEIGHT - TOP - BOTTOM);

  const segments = (points: Array<number | null>) => {
    const runs: string[] = [];
    let current: string[] = [];
    points.forEach((point, axis) => {
      if (point === null) {
        if (current.length) runs.push(current.join(' '));
        current = [];
      } else current.push(`${x(axis)},${y(point)}`);
    });
    if (current.length) runs.push(current.join(' '));
    return runs;
  };

  return (
    <figure data-testid={testIds.trialsParallelCoords} style={{ margin: 0, overflowX: 'auto' }}>
      <svg
        role="img"
        aria-label={`Parallel coordinates of ${axes.map((axis) => axis.label).join(', ')}`}
        width={width}
        height={HEIGHT}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        style={{ fontSize: 11, fontFamily: 'inherit' }}
      >
        {axes.map((axis, index) => (
          <g key={axis.key} data-axis={axis.key}>
            <line x1={x(index)} x2={x(index)} y1={y(1)} y2={y(0)} stroke="#8c8c8c" />
            <text
              x={x(index)}
              y={14}
              textAnchor="middle"
              fontWeight={axis.key.startsWith('metric.') ? 700 : 500}
            >
              {axis.key.startsWith('metric.') ? `metric: ${axis.label}` : axis.label}
            </text>
            <text x={x(index) + 4} y={y(1) + 4} fill="#595959">
              {tick(axis.max)}
            </text>
            <text x={x(index) + 4} y={y(0)} fill="#595959">
              {axis.max === axis.min ? '' : tick(axis.min)}
            </text>
          </g>
        ))}
        {lines.map((line) =>
          segments(line.points).map((points, run) => (
            <polyline
              key={`${line.trialId}-${run}`}
              data-trial-id={line.trialId}
              points={points}
              fill="none"
              stroke={line.color}
              strokeWidth={2}
              strokeOpacity={0.85}
            >
              <title>
                {line.label}:{' '}
                {axes.map((axis, i) => `${axis.label}=${line.raw[i] ?? '-'}`).join(', ')}
              </title>
            </polyline>
          )),
        )}
        {lines.map((line) =>
          line.points.map((point, axis) =>
            point === null ? null : (
              <circle
                key={`${line.trialId}-dot-${axis}`}
                cx={x(axis)}
                cy={y(point)}
                r={3}
                fill={line.color}
              />
            ),
          ),
        )}
      </svg>
      <figcaption style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
        {lines.map((line) => (
          <span key={line.trialId} title={line.trialId}>
            <span
              aria-hidden="true"
              style={{
                display: 'inline-block',
                width: 12,
                height: 3,
                background: line.color,
                marginRight: 4,
                verticalAlign: 'middle',
              }}
            />
            {line.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
