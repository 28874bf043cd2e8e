import { useVirtualizer } from '@tanstack/react-virtual';
import { Button, Checkbox, Flex, Input, Select, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { testIds } from '../../test-ids.ts';
import { useToast } from '../../ui/Toast/index.ts';
import {
  createIncrementalFilter,
  defaultLogFilter,
  formatLogTime,
  nextSelection,
  rowsAsText,
  splitMatches,
  type LogFilter,
  type LogRow,
} from './log-buffer.ts';
import type { LogStreamStatus } from './useLogStream.ts';

const ROW_HEIGHT = 20;

const timeWindows = [
  { value: 'all', label: 'All time' },
  { value: '300', label: 'Last 5 minutes' },
  { value: '900', label: 'Last 15 minutes' },
  { value: '3600', label: 'Last hour' },
  { value: '86400', label: 'Last 24 hours' },
];

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A virtualised log table: only the visible lines are in the DOM. Follows the tail while the
 * view is at the bottom; search, user/system toggles, time window, raw JSON, and copy/download
 * of the selected (or all shown) lines. `rows` is the buffer's list, appended in place; `version`
 * changes when lines arrive.
 */
export function LogViewer({
  rows,
  version,
  status,
  error,
  fileName = 'logs.txt',
  height = 480,
  indexShift = 0,
  find = '',
}: {
  /** A line to scroll to and select once it arrives (its text, or a part of it). */
  find?: string;
  rows: readonly LogRow[];
  /** How far the rows' indexes have moved since the first rows shown (a selection follows). */
  indexShift?: number;
  version: number;
  status: LogStreamStatus;
  error?: string;
  fileName?: string;
  height?: number | string;
}) {
  const toast = useToast();
  const [filter, setFilter] = useState<LogFilter>(defaultLogFilter);
  const [windowSeconds, setWindowSeconds] = useState('all');
  const [raw, setRaw] = useState(false);
  const [follow, setFollow] = useState(true);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [anchor, setAnchor] = useState<number | null>(null);
  const [shiftSeen, setShiftSeen] = useState(indexShift);
  if (indexShift !== shiftSeen) {
    const delta = indexShift - shiftSeen;
    setShiftSeen(indexShift);
    setSelected((s) => new Set([...s].map((index) => index + delta)));
    setAnchor((a) => (a === null ? null : a + delta));
  }
  const filterRows = useMemo(() => createIncrementalFilter(), []);
  const effectiveFilter = useMemo(
    () =>
      windowSeconds === 'all'
        ? filter
        : { ...filter, since: Date.now() - Number(windowSeconds) * 1000 },
    [filter, windowSeconds],
  );
  // Re-run on every render (each `version` of the buffer): the incremental filter tests only
  // the lines that arrived since the last run.
  void version;
  const visible = filterRows(rows, effectiveFilter);
  const count = visible.length;

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });

  // The line asked for (?find=): selected and scrolled to once, instead of following the tail.
  const wanted = find.trim();
  const [found, setFound] = useState<number | null>(null);
  const foundAt =
    wanted && found === null ? visible.findIndex((row) => row.message.includes(wanted)) : -1;
  if (foundAt >= 0) {
    const row = visible[foundAt] as LogRow;
    setFound(row.index);
    setSelected(new Set([row.index]));
    setAnchor(row.index);
    setFollow(false);
  }
  useEffect(() => {
    if (found === null) return;
    const at = visible.findIndex((row) => row.index === found);
    if (at >= 0) virtualizer.scrollToIndex(at, { align: 'center' });
    // Once, when the line is found.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [found]);

  useEffect(() => {
    if (follow && count > 0) virtualizer.scrollToIndex(count - 1, { align: 'end' });
  }, [follow, count, virtualizer]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < ROW_HEIGHT * 2;
    if (atBottom !== follow) setFollow(atBottom);
  };

  const chosenRows = () =>
    selected.size > 0 ? visible.filter((row) => selected.has(row.index)) : visible;

  return (
    <div data-testid={testIds.logViewer} data-line-count={count}>
      <Flex gap={8} wrap align="center" style={{ marginBottom: 8 }}>
        <Input.Search
          allowClear
          placeholder="Search logs"
          data-testid={testIds.logSearch}
          style={{ width: 240 }}
          onSearch={(search) => setFilter((f) => ({ ...f, search }))}
          onChange={(e) => {
            if (e.target.value === '') setFilter((f) => ({ ...f, search: '' }));
          }}
        />
        <Checkbox
          checked={filter.showUser}
          onChange={(e) => setFilter((f) => ({ ...f, showUser: e.target.checked }))}
        >
          User
        </Checkbox>
        <Checkbox
          checked={filter.showSystem}
          onChange={(e) => setFilter((f) => ({ ...f, showSystem: e.target.checked }))}
        >
          System
        </Checkbox>
        <Checkbox checked={raw} onChange={(e) => setRaw(e.target.checked)}>
          Raw JSON
        </Checkbox>
        <Select
          size="small"
          aria-label="Time window"
          value={windowSeconds}
          onChange={setWindowSeconds}
          options={timeWindows}
          style={{ width: 150 }}
        />
        <Button
          size="small"
          data-testid={testIds.logFollow}
          type={follow ? 'primary' : 'default'}
          onClick={() => setFollow(true)}
        >
          {follow ? 'Following' : 'Follow'}
        </Button>
        <Button
          size="small"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(rowsAsText(chosenRows(), raw));
              toast({ content: `Copied ${chosenRows().length} lines` });
            } catch (err) {
              const reason = err instanceof Error ? err.message : String(err);
              toast({ content: `Copy failed: ${reason}`, type: 'error' });
            }
          }}
        >
          Copy {selected.size > 0 ? `(${selected.size})` : 'all'}
        </Button>
        <Button size="small" onClick={() => download(fileName, rowsAsText(chosenRows(), raw))}>
          Download {selected.size > 0 ? `(${selected.size})` : 'all'}
        </Button>
        <Typography.Text type="secondary">
          {count.toLocaleString()} lines
          {count !== rows.length ? ` of ${rows.length.toLocaleString()}` : ''}
        </Typography.Text>
        {status === 'streaming' ? <Tag color="processing">live</Tag> : null}
        {status === 'error' ? <Tag color="error">{error || 'stream failed'}</Tag> : null}
      </Flex>
      <div
        ref={scrollRef}
        onScroll={onScroll}
        role="log"
        aria-label="Log lines"
        // A scrolling region is reachable by keyboard (arrow keys scroll it).
        tabIndex={0}
        style={{
          height,
          overflow: 'auto',
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
          fontSize: 12,
          background: '#0d1117',
          color: '#e6edf3',
          contain: 'strict',
        }}
      >
        {count === 0 ? (
          <div style={{ padding: 8, color: '#8b949e' }}>
            {status === 'streaming' ? 'Waiting for log lines…' : 'No log lines'}
          </div>
        ) : null}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: '100%' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = visible[item.index] as LogRow;
            const isSelected = selected.has(row.index);
            return (
              <div
                key={row.index}
                data-testid={testIds.logLine}
                data-user={row.user}
                data-found={row.index === found ? 'true' : undefined}
                aria-current={row.index === found ? 'true' : undefined}
                onClick={(e) => {
                  setSelected((s) => nextSelection(s, anchor, row.index, visible, e.shiftKey));
                  if (!e.shiftKey) setAnchor(row.index);
                }}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  height: ROW_HEIGHT,
                  lineHeight: `${ROW_HEIGHT}px`,
                  transform: `translateY(${item.start}px)`,
                  whiteSpace: 'pre',
                  padding: '0 8px',
                  width: '100%',
                  cursor: 'pointer',
                  background: isSelected ? '#1f6feb55' : undefined,
                  color: row.user ? undefined : '#8b949e',
                }}
              >
                <span style={{ color: '#8b949e', marginRight: 12 }}>{formatLogTime(row.time)}</span>
                {raw
                  ? JSON.stringify(row.raw)
                  : splitMatches(row.message, filter.search).map((part, i) =>
                      part.match ? (
                        <mark key={i} style={{ background: '#bb8009', color: 'inherit' }}>
                          {part.text}
                        </mark>
                      ) : (
                        <span key={i}>{part.text}</span>
                      ),
                    )}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
