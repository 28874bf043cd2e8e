import { Descriptions } from 'antd';
import { formatBytes } from '../../../format/bytes.ts';
import { testIds } from '../../../test-ids.ts';
import type { RendererProps } from './types.ts';

/** Office documents: text extraction is out of scope, so their facts and a download. */
export default function DocPreview({ name, sizeBytes, downloadUrl }: RendererProps) {
  return (
    <Descriptions
      data-testid={testIds.docPreview}
      size="small"
      column={1}
      items={[
        { key: 'name', label: 'Name', children: name },
        { key: 'size', label: 'Size', children: formatBytes(sizeBytes) },
        {
          key: 'download',
          label: 'Contents',
          children: (
            <a href={downloadUrl} download>
              Download to open it
            </a>
          ),
        },
      ]}
    />
  );
}
