import { Checkbox, Empty, Flex, List, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import type { DatumInfo, DatumState } from '@ivory/api';
import { testIds } from '../../test-ids.ts';
import { datumTone, StateTag } from '../pipelines/states.tsx';
import { countDatumStates, datumStateOrder, orderDatums } from './datum-order.ts';

/** A job's datums, failed first, with a state filter; each links to its own logs. */
export function DatumList({
  datums,
  selectedId,
  linkTo,
}: {
  datums: readonly DatumInfo[];
  selectedId: string;
  linkTo: (datumId: string) => string;
}) {
  const [states, setStates] = useState<DatumState[]>([]);
  const counts = countDatumStates(datums);
  const shown = orderDatums(datums, states);
  return (
    <div>
      <Checkbox.Group
        data-testid={testIds.datumStateFilter}
        value={states}
        onChange={(value) => setStates(value as DatumState[])}
        options={datumStateOrder
          .filter((s) => counts[s])
          .map((s) => ({ value: s, label: `${s.toLowerCase()} (${counts[s]})` }))}
      />
      {shown.length === 0 ? (
        <Empty description="No datums" image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <List
          size="small"
          dataSource={shown}
          style={{ maxHeight: 360, overflow: 'auto' }}
          renderItem={(d) => (
            <List.Item
              data-testid={testIds.datumRow}
              data-state={d.state}
              style={{
                background: d.datum.id === selectedId ? 'var(--ivory-selected)' : undefined,
              }}
            >
              <Flex gap={8} align="center" style={{ width: '100%' }}>
                <StateTag state={d.state} tone={datumTone(d.state)} />
                <Link to={linkTo(d.datum.id)}>
                  <Typography.Text code>{d.datum.id.slice(0, 12)}</Typography.Text>
                </Link>
                <Typography.Text type="secondary" ellipsis style={{ flex: 1 }}>
                  {d.data.map((f) => f.file.path).join(', ')}
                </Typography.Text>
              </Flex>
            </List.Item>
          )}
        />
      )}
    </div>
  );
}
