import { Alert, AutoComplete, Flex, Input, List, Spin, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { formatTimestamp } from '../../format/time.ts';
import { formatBytes } from '../../format/bytes.ts';
import { testIds } from '../../test-ids.ts';
import { previewKindOf } from '../preview/registry.ts';
import { useRecentCommits } from '../repos/api.ts';
import { useCommitDiff, useTextPair } from './api.ts';
import { resolveCommitRef } from './commit-ref.ts';
import { sideBySide, type ChangedFile, type DiffRow } from './build-diff.ts';

/** Text diffs load both whole files: only for text kinds up to this size. */
export const TEXT_DIFF_MAX_BYTES = 1024 * 1024;
const TEXT_RENDERERS = new Set(['code', 'markdown', 'web', 'iframe', 'csv']);

const changeColors = { added: 'green', removed: 'red', changed: 'gold' } as const;

/** How many of the repo's newest commits the compare picker offers (and short IDs match). */
export const PICKER_COMMITS = 200;

export function isTextDiffable(file: ChangedFile): boolean {
  const renderer = previewKindOf(file.path).renderer;
  const svg = file.path.toLowerCase().endsWith('.svg');
  return (
    (TEXT_RENDERERS.has(renderer) || svg) &&
    (file.oldSize ?? 0) <= TEXT_DIFF_MAX_BYTES &&
    (file.newSize ?? 0) <= TEXT_DIFF_MAX_BYTES
  );
}

/**
 * The changes of a commit against its parent, or against any commit of the repo: files added,
 * removed and changed with their sizes; a text file opens as a side-by-side line diff.
 */
export function DiffView({
  project,
  repo,
  commitId,
  parentId,
  compareId,
  onCompareChange,
}: {
  project: string;
  repo: string;
  commitId: string;
  parentId: string | null;
  /** The commit compared with; '' = the parent. */
  compareId: string;
  onCompareChange: (commitId: string) => void;
}) {
  const diff = useCommitDiff(project, repo, commitId, compareId);
  const [openPath, setOpenPath] = useState('');
  const baseId = compareId || parentId;
  const files = diff.data ?? [];
  const open = files.find((file) => file.path === openPath) ?? null;

  return (
    <section data-testid={testIds.diffView} aria-label="Changes">
      <Flex gap={8} align="center" wrap style={{ marginBottom: 12 }}>
        <Typography.Text>
          Compared with{' '}
          {baseId ? (
            <Typography.Text code>{baseId.slice(0, 8)}</Typography.Text>
          ) : (
            'nothing (first commit)'
          )}
          {compareId ? '' : ' (parent)'}
        </Typography.Text>
        <CommitPicker
          project={project}
          repo={repo}
          commitId={commitId}
          compareId={compareId}
          onCompare={(id) => {
            setOpenPath('');
            onCompareChange(id);
          }}
        />
      </Flex>
      {diff.error ? <Alert type="error" showIcon message={diff.error.message} /> : null}
      <List<ChangedFile>
        size="small"
        bordered
        loading={diff.isPending}
        dataSource={files}
        locale={{ emptyText: 'No files changed' }}
        style={{ maxHeight: 320, overflow: 'auto' }}
        renderItem={(file) => (
          <List.Item
            data-testid={testIds.diffFileRow}
            data-path={file.path}
            aria-current={file.path === openPath || undefined}
            style={{ background: file.path === openPath ? 'var(--ivory-selected)' : undefined }}
          >
            <Flex gap={8} align="center" style={{ minWidth: 0 }}>
              <Tag color={changeColors[file.change]}>{file.change}</Tag>
              {isTextDiffable(file) ? (
                <Typography.Link onClick={() => setOpenPath(file.path)}>
                  {file.path}
                </Typography.Link>
              ) : (
                <span>{file.path}</span>
              )}
            </Flex>
            <Typography.Text type="secondary">
              {file.oldSize === null ? '' : formatBytes(file.oldSize)}
              {file.oldSize !== null && file.newSize !== null ? ' → ' : ''}
              {file.newSize === null ? '' : formatBytes(file.newSize)}
            </Typography.Text>
          </List.Item>
        )}
      />
      {open && baseId !== undefined ? (
        <TextDiff project={project} repo={repo} commitId={commitId} baseId={baseId} file={open} />
      ) : null}
    </section>
  );
}

/**
 * "Compare with commit": type a whole ID, the 8 characters the console shows (or any start of 4
 * or more), a branch or a reference — or pick one of the repo's newest commits from the list that
 * opens as you type (by the start of its ID or words of its description).
 */
function CommitPicker({
  project,
  repo,
  commitId,
  compareId,
  onCompare,
}: {
  project: string;
  repo: string;
  commitId: string;
  compareId: string;
  onCompare: (commitId: string) => void;
}) {
  const commits = useRecentCommits(project, repo, PICKER_COMMITS);
  const [text, setText] = useState(compareId);
  const [problem, setProblem] = useState('');
  const options = useMemo(
    () =>
      (commits.data ?? [])
        .filter((info) => info.commit?.id && info.commit.id !== commitId)
        .map((info) => {
          const id = info.commit!.id!;
          const description = info.description ? ` · ${info.description}` : '';
          const when = info.started ? ` · ${formatTimestamp(info.started)}` : '';
          return {
            value: id,
            search: `${id} ${info.description ?? ''}`.toLowerCase(),
            label: (
              <span>
                <Typography.Text code>{id.slice(0, 8)}</Typography.Text>
                {description}
                {when}
              </span>
            ),
          };
        }),
    [commits.data, commitId],
  );
  const submit = (typed: string) => {
    const resolved = resolveCommitRef(typed, commits.data ?? []);
    if ('error' in resolved) {
      setProblem(resolved.error);
      return;
    }
    setProblem('');
    setText(resolved.id);
    onCompare(resolved.id);
  };
  return (
    <Flex vertical gap={4} style={{ flex: '1 1 320px', maxWidth: 480 }}>
      <AutoComplete
        value={text}
        options={options}
        onChange={(value: string) => {
          setText(value);
          setProblem('');
        }}
        onSelect={(value: string) => submit(value)}
        filterOption={(input, option) =>
          (option?.search ?? '').split(/\s+/).some((word) => word.startsWith(input.toLowerCase()))
        }
      >
        <Input.Search
          data-testid={testIds.diffCompareInput}
          aria-label="Compare with commit"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'diff-compare-problem' : undefined}
          placeholder="Pick a commit or type its ID (empty: parent)"
          allowClear
          enterButton="Compare"
          onSearch={submit}
        />
      </AutoComplete>
      {problem ? (
        <Typography.Text id="diff-compare-problem" type="danger" role="alert">
          {problem}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}

function TextDiff({
  project,
  repo,
  commitId,
  baseId,
  file,
}: {
  project: string;
  repo: string;
  commitId: string;
  baseId: string | null;
  file: ChangedFile;
}) {
  const pair = useTextPair(
    file.oldSize !== null && baseId ? { project, repo, commitId: baseId, path: file.path } : null,
    file.newSize !== null ? { project, repo, commitId, path: file.path } : null,
  );
  if (pair.error) return <Alert type="error" showIcon message={pair.error.message} />;
  if (pair.isPending) return <Spin />;
  const rows = sideBySide(pair.data.before, pair.data.after);
  return (
    <div
      data-testid={testIds.textDiff}
      role="table"
      aria-label={`Changes in ${file.path}`}
      style={{
        marginTop: 12,
        maxHeight: 520,
        overflow: 'auto',
        border: '1px solid var(--ivory-border-secondary)',
        fontFamily: 'monospace',
        fontSize: 12,
      }}
    >
      {rows.map((row, index) => (
        <DiffLine key={index} row={row} />
      ))}
    </div>
  );
}

const cellColors = {
  same: undefined,
  removed: 'var(--ivory-removed-bg)',
  added: 'var(--ivory-added-bg)',
} as const;

function DiffLine({ row }: { row: DiffRow }) {
  const cell = (side: DiffRow['left'], mark: string) => (
    <>
      <span
        role="cell"
        style={{ color: 'var(--ivory-text-secondary)', textAlign: 'right', paddingRight: 6 }}
      >
        {side?.line ?? ''}
      </span>
      <span
        role="cell"
        data-kind={side?.kind ?? 'empty'}
        style={{
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
          background: side ? cellColors[side.kind] : 'var(--ivory-bg-subtle)',
          paddingInline: 4,
        }}
      >
        {side && side.kind !== 'same' ? mark : ' '} {side?.text ?? ''}
      </span>
    </>
  );
  return (
    <div
      role="row"
      style={{ display: 'grid', gridTemplateColumns: '40px minmax(0,1fr) 40px minmax(0,1fr)' }}
    >
      {cell(row.left, '-')}
      {cell(row.right, '+')}
    </div>
  );
}
