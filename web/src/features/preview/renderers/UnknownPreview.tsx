import { Empty } from 'antd';
import { testIds } from '../../../test-ids.ts';
import type { RendererProps } from './types.ts';

/** A file of a kind the console does not show: the download only. */
export default function UnknownPreview({ downloadUrl }: RendererProps) {
  return (
    <Empty
      data-testid={testIds.unknownPreview}
      description={
        <>
          No preview for this kind of file.{' '}
          <a href={downloadUrl} download>
            Download it
          </a>
        </>
      }
    />
  );
}
