import { useQuery } from '@tanstack/react-query';
import { Alert, Empty, Flex, Segmented, Typography } from 'antd';
import { useState } from 'react';
import type { FileInfo } from '@ivory/api';
import { formatBytes } from '../../format/bytes.ts';
import { testIds } from '../../test-ids.ts';
import { VIEW_SOURCE_MAX_BYTES, previewDecision, type PreviewRenderer } from './registry.ts';
import { rendererProps } from './renderer-props.ts';
import { rendererQuery, type RendererModule } from './renderers/index.ts';
import { Loading } from './renderers/Loading.tsx';
import { FileIcon } from '../files/FileIcon.tsx';
import { LargeTextPreview } from './LargeTextPreview.tsx';

/** Kinds shown as text: over their inline limit, their head and tail still show. */
const TEXT_RENDERERS: ReadonlySet<PreviewRenderer> = new Set(['code', 'markdown', 'web']);

/**
 * The preview pane of a file: the registry picks the renderer (loaded on first use); files too
 * large for their renderer and kinds without a preview offer the download instead.
 */
export function FilePreview({
  info,
  url,
  downloadUrl,
}: {
  info: FileInfo;
  url: string;
  downloadUrl: string;
}) {
  const props = rendererProps(info, url, downloadUrl);
  const { name, sizeBytes } = props;
  const decision = previewDecision({ path: info.file.path, sizeBytes: info.sizeBytes });
  const [mode, setMode] = useState<'preview' | 'source'>('preview');
  const canViewSource =
    decision.kind.viewSource && decision.show === 'preview' && sizeBytes <= VIEW_SOURCE_MAX_BYTES;
  const showSource = canViewSource && mode === 'source';
  const renderer = useQuery({
    ...rendererQuery(showSource ? 'code' : decision.kind.renderer),
    enabled: decision.show === 'preview',
  });

  return (
    <aside
      data-testid={testIds.filePreview}
      data-renderer={decision.kind.renderer}
      aria-label="Preview"
      style={{ border: '1px solid var(--ivory-border-secondary)', borderRadius: 6, padding: 12 }}
    >
      <Flex justify="space-between" align="flex-start" gap={8}>
        <Typography.Title level={5} style={{ marginTop: 0, wordBreak: 'break-all' }}>
          <FileIcon name={decision.kind.icon} /> {name}
        </Typography.Title>
        {canViewSource ? (
          <Segmented
            data-testid={testIds.viewSourceToggle}
            size="small"
            value={mode}
            onChange={(value) => setMode(value as 'preview' | 'source')}
            options={[
              { label: 'Preview', value: 'preview' },
              { label: 'Source', value: 'source' },
            ]}
          />
        ) : null}
      </Flex>
      <Typography.Paragraph type="secondary">
        {formatBytes(info.sizeBytes)} ·{' '}
        <a href={downloadUrl} download data-testid={testIds.fileDownload}>
          Download
        </a>
      </Typography.Paragraph>
      {decision.show === 'too-large' &&
      (decision.kind.viewSource || TEXT_RENDERERS.has(decision.kind.renderer)) ? (
        <LargeTextPreview url={url} size={sizeBytes} />
      ) : decision.show === 'too-large' ? (
        <Alert
          data-testid={testIds.previewTooLarge}
          type="info"
          showIcon
          message={`This file is too large to preview (${formatBytes(sizeBytes)}; the limit for this kind is ${formatBytes(decision.limitBytes)}). Download it instead.`}
        />
      ) : decision.show === 'download' ? (
        <Empty
          data-testid={testIds.previewUnavailable}
          description={
            decision.reason === 'not-previewable'
              ? 'This kind of file cannot be previewed. Download it to open it.'
              : 'No preview for this kind of file. Download it to open it.'
          }
        />
      ) : (
        <Loading pending={renderer.isPending} error={renderer.error}>
          {() => {
            const Renderer = (renderer.data as RendererModule).default;
            return <Renderer key={`${showSource ? 'source' : 'preview'}:${url}`} {...props} />;
          }}
        </Loading>
      )}
    </aside>
  );
}
