import { Select } from 'antd';
import type { BranchInfo } from '@ivory/api';
import { testIds } from '../../test-ids.ts';

export function BranchSelector({
  branches,
  value,
  onSelect,
}: {
  branches: readonly BranchInfo[];
  value: string;
  onSelect: (branch: BranchInfo) => void;
}) {
  return (
    <Select
      data-testid={testIds.branchSelect}
      aria-label="Branch"
      style={{ minWidth: 180 }}
      value={value || undefined}
      placeholder="Select a branch"
      options={branches.map((info) => ({ value: info.branch.name, label: info.branch.name }))}
      onChange={(name: string) => {
        const selected = branches.find((info) => info.branch.name === name);
        if (selected) onSelect(selected);
      }}
    />
  );
}
