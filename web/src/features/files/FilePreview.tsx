import { Empty, Spin, Typography } from 'antd';
import type { FileInfo } from '@ivory/api';
import { formatBytes } from '../../format/bytes.ts';
import { testIds } from '../../test-ids.ts';
import { useFileText } from './api.ts';
import { previewKind } from './file-kind.ts';
import { baseName } from './file-path.ts';

/** The simple preview pane: text for small text files, an image for images. */
export function FilePreview({
  info,
  url,
  downloadUrl,
}: {
  info: FileInfo;
  url: string;
  downloadUrl: string;
}) {
  const kind = previewKind(info);
  const text = useFileText(url, kind === 'text');

  return (
    <aside
      data-testid={testIds.filePreview}
      aria-label="Preview"
      style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: 12 }}
    >
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {baseName(info.file.path)}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {formatBytes(info.sizeBytes)} ·{' '}
        <a href={downloadUrl} download data-testid={testIds.fileDownload}>
          Download
        </a>
      </Typography.Paragraph>
      {kind === 'image' ? (
        <img
          src={url}
          alt={baseName(info.file.path)}
          style={{ maxWidth: '100%', maxHeight: 480 }}
        />
      ) : kind === 'text' ? (
        text.isPending ? (
          <Spin />
        ) : text.error ? (
          <Typography.Text type="danger">{text.error.message}</Typography.Text>
        ) : (
          <pre
            style={{
              maxHeight: 480,
              overflow: 'auto',
              fontSize: 12,
              background: '#fafafa',
              padding: 8,
            }}
          >
            {text.data}
          </pre>
        )
      ) : (
        <Empty description="No preview available for this file" />
      )}
    </aside>
  );
}
