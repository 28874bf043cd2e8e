import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo, use } from 'react';
import CheckCircleFilled from '@ant-design/icons-svg/es/asn/CheckCircleFilled';
import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import DatabaseOutlined from '@ant-design/icons-svg/es/asn/DatabaseOutlined';
import PauseCircleFilled from '@ant-design/icons-svg/es/asn/PauseCircleFilled';
import SyncOutlined from '@ant-design/icons-svg/es/asn/SyncOutlined';
import ClockCircleOutlined from '@ant-design/icons-svg/es/asn/ClockCircleOutlined';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { testIds } from '../../test-ids.ts';
import { Icon } from '../../ui/Icon/index.ts';
import { stateLabel } from '../pipelines/states.tsx';
import { GraphViewContext, nodeLook, type LineageFlowNode } from './graph-view.ts';
import { nodeSize } from './layout-engine.ts';

const kindLabel: Record<string, string> = {
  repo: 'Repo',
  pipeline: 'Pipeline',
  cron: 'Cron',
  crossProject: 'Other project',
};

/** A node card's state icon: its tone for pipelines, a database for repos. */
const toneIcon: Record<string, IconDefinition> = {
  success: CheckCircleFilled,
  error: CloseCircleFilled,
  running: SyncOutlined,
  paused: PauseCircleFilled,
  idle: ClockCircleOutlined,
};

export const LineageNodeView = memo(function LineageNodeView({ data }: NodeProps<LineageFlowNode>) {
  const { node } = data;
  const view = use(GraphViewContext);
  const status = view.statuses.get(node.id);
  const { tone, color, selected, related, dimmed } = nodeLook(node, view);
  const size = nodeSize(node.kind);
  const [target, source] =
    view.direction === 'DOWN' ? [Position.Top, Position.Bottom] : [Position.Left, Position.Right];
  const style = {
    width: size.width,
    height: size.height,
    borderRadius: node.kind === 'pipeline' ? 8 : 4,
    opacity: dimmed ? 0.3 : 1,
    boxSizing: 'border-box' as const,
  };
  const handles = (
    <>
      <Handle type="target" position={target} isConnectable={false} style={{ opacity: 0 }} />
      <Handle type="source" position={source} isConnectable={false} style={{ opacity: 0 }} />
    </>
  );
  return (
    <div
      data-testid={testIds.lineageNode}
      data-node-id={node.id}
      data-tone={tone ?? node.kind}
      data-state={status?.lastJobState ?? ''}
      title={`${kindLabel[node.kind]} ${node.project}/${node.name}`}
      style={{
        ...style,
        background: 'var(--ivory-bg-raised)',
        color: 'var(--ivory-text)',
        border: `2px solid ${color}`,
        boxShadow: selected
          ? '0 0 0 3px var(--ivory-focus)'
          : related
            ? '0 0 0 2px var(--ivory-selected)'
            : undefined,
        padding: '4px 10px',
        fontSize: 12,
        overflow: 'hidden',
      }}
    >
      {handles}
      <div
        style={{ color: 'var(--ivory-text-secondary)', fontSize: 10, textTransform: 'uppercase' }}
      >
        <Icon
          icon={tone ? (toneIcon[tone] ?? ClockCircleOutlined) : DatabaseOutlined}
          style={{ color, marginRight: 4 }}
          aria-label={tone ? `state ${tone}` : undefined}
        />
        {kindLabel[node.kind]}
        {node.kind === 'crossProject' ? ` · ${node.project}` : ''}
      </div>
      <div
        style={{
          fontWeight: 600,
          whiteSpace: 'nowrap',
          textOverflow: 'ellipsis',
          overflow: 'hidden',
        }}
      >
        {node.name}
      </div>
      {node.kind === 'pipeline' ? (
        <div style={{ color, fontSize: 11 }}>
          {stateLabel(status?.state)} · last job {stateLabel(status?.lastJobState).toLowerCase()}
        </div>
      ) : null}
    </div>
  );
});

export const nodeTypes = { lineage: LineageNodeView };
