import { Alert, Spin, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { listDatumsForInput, type DatumInfo } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { queryKeys } from '../../data/query-keys.ts';
import { testIds } from '../../test-ids.ts';

/** How many datums the preview lists (one more is asked for, to know there are more). */
export const PREVIEW_DATUMS = 100;

/** The `input` of an effective spec, as JSON ('' when it has none or does not parse). */
export function inputOf(effectiveJson: string): string {
  try {
    const input = (JSON.parse(effectiveJson) as { input?: unknown }).input;
    return input ? JSON.stringify(input) : '';
  } catch {
    return '';
  }
}

/** A datum's data as the preview shows it: each input match as `repo:/path`. */
export function datumLabel(datum: DatumInfo): string[] {
  return datum.data.map(
    (file) => `${file.file?.commit?.repo?.name ?? ''}:${file.file?.path ?? ''}`,
  );
}

/**
 * The datums the spec's input would make now, before the pipeline exists (ListDatum with the
 * input: the platform's dry run over its branches' heads), refreshed with the effective spec.
 */
export function DatumPreview({ effective }: { effective: string }) {
  const client = useApi();
  const inputJson = inputOf(effective);
  const preview = useQuery({
    queryKey: queryKeys.datumPreview(inputJson),
    queryFn: ({ signal }) =>
      listDatumsForInput(client, JSON.parse(inputJson) as unknown, PREVIEW_DATUMS + 1, signal),
    enabled: inputJson !== '',
    retry: false,
    staleTime: 5_000,
  });
  if (inputJson === '') return null;
  const datums = preview.data ?? [];
  const shown = datums.slice(0, PREVIEW_DATUMS);
  const count =
    datums.length > PREVIEW_DATUMS
      ? `the first ${PREVIEW_DATUMS} datums`
      : `${datums.length} ${datums.length === 1 ? 'datum' : 'datums'}`;
  return (
    <section data-testid={testIds.datumPreview} aria-label="Datum preview">
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        Datums {preview.isFetching ? <Spin size="small" /> : null}
      </Typography.Title>
      {preview.error ? (
        <Alert type="warning" showIcon message={preview.error.message} />
      ) : preview.data ? (
        <>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            This input makes {count} of its branches&apos; current commits.
          </Typography.Paragraph>
          <Table
            size="small"
            rowKey={(datum) => datum.datum?.id ?? ''}
            dataSource={shown}
            pagination={false}
            scroll={{ y: 240 }}
            columns={[
              {
                title: 'Datum',
                key: 'id',
                width: 120,
                render: (_: unknown, datum: DatumInfo) => (
                  <Typography.Text code>{(datum.datum?.id ?? '').slice(0, 12)}</Typography.Text>
                ),
              },
              {
                title: 'Input files',
                key: 'data',
                render: (_: unknown, datum: DatumInfo) => datumLabel(datum).join(', '),
              },
            ]}
          />
        </>
      ) : null}
    </section>
  );
}
