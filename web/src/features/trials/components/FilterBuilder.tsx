import { Button, Flex, Input, Space, Typography } from 'antd';
import { useId, useState } from 'react';
import { TrialFilterOperator, TrialState, type TrialFilter } from '@ivory/api';
import { testIds } from '../../../test-ids.ts';
import { Select } from '../../../ui/Select/index.ts';
import { filtersFromRows, TIME_FIELDS, type FilterRow } from '../trial-view.ts';

const OPERATOR_OPTIONS = TrialFilterOperator.map((operator) => ({
  value: operator,
  label: operator,
}));
const STATE_OPTIONS = TrialState.map((state) => ({ value: state, label: state }));

const emptyRow = (): FilterRow => ({ field: '', operator: 'EQ', value: '' });

function valueHint(field: string): string {
  if (TIME_FIELDS.has(field)) return 'RFC 3339 or ms since epoch';
  if (field.startsWith('metric.')) return 'a number';
  return 'value (LIKE: % any, _ one)';
}

/**
 * Field / operator / value rows; Apply hands the non-empty rows on as a TrialFilter list. The
 * field input suggests the base fields and the discovered param./label./metric. names, and
 * accepts any other name typed.
 */
export function FilterBuilder({
  filters,
  fields,
  onApply,
}: {
  filters: readonly TrialFilter[];
  fields: readonly string[];
  onApply: (filters: TrialFilter[]) => void;
}) {
  const listId = useId();
  const [rows, setRows] = useState<FilterRow[]>(() => filters.map((filter) => ({ ...filter })));
  const change = (index: number, patch: Partial<FilterRow>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  return (
    <section aria-label="Filters" style={{ marginBottom: 12 }}>
      <datalist id={listId}>
        {fields.map((field) => (
          <option key={field} value={field} />
        ))}
      </datalist>
      <Flex vertical gap={6}>
        {rows.length === 0 ? (
          <Typography.Text type="secondary">No filters: every trial of the view.</Typography.Text>
        ) : null}
        {rows.map((row, index) => {
          const n = index + 1;
          return (
            <Space key={index} wrap data-testid={testIds.trialsFilterRow}>
              <Input
                aria-label={`Filter ${n} field`}
                placeholder="field, e.g. metric.accuracy"
                list={listId}
                value={row.field}
                style={{ width: 220 }}
                onChange={(event) => change(index, { field: event.target.value })}
              />
              <div style={{ width: 110 }}>
                <Select
                  aria-label={`Filter ${n} operator`}
                  options={OPERATOR_OPTIONS}
                  value={row.operator}
                  onChange={(operator) =>
                    change(index, { operator: operator as FilterRow['operator'] })
                  }
                />
              </div>
              {row.field === 'state' ? (
                <div style={{ width: 180 }}>
                  <Select
                    aria-label={`Filter ${n} value`}
                    options={STATE_OPTIONS}
                    value={row.value}
                    onChange={(value) => change(index, { value })}
                  />
                </div>
              ) : (
                <Input
                  aria-label={`Filter ${n} value`}
                  placeholder={valueHint(row.field)}
                  value={row.value}
                  style={{ width: 220 }}
                  onChange={(event) => change(index, { value: event.target.value })}
                  onPressEnter={() => onApply(filtersFromRows(rows))}
                />
              )}
              <Button
                aria-label={`Remove filter ${n}`}
                onClick={() => setRows((current) => current.filter((_, i) => i !== index))}
              >
                ×
              </Button>
            </Space>
          );
        })}
        <Space>
          <Button onClick={() => setRows((current) => [...current, emptyRow()])}>Add filter</Button>
          <Button
            type="primary"
            data-testid={testIds.trialsFilterApply}
            onClick={() => onApply(filtersFromRows(rows))}
          >
            Apply filters
          </Button>
          {rows.length > 0 ? (
            <Button
              onClick={() => {
                setRows([]);
                onApply([]);
              }}
            >
              Clear
            </Button>
          ) : null}
        </Space>
      </Flex>
    </section>
  );
}
