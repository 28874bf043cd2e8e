import { testIds } from '../../test-ids.ts';

const spinnerStyle = {
  width: 32,
  height: 32,
  borderRadius: '50%',
  border: '3px solid var(--ivory-selected)',
  borderTopColor: 'var(--ivory-primary)',
  animation: 'page-loader-spin 0.8s linear infinite',
} as const;

/**
 * The one fallback shown while a lazily loaded screen arrives. Plain markup, so the entry
 * chunk carries no component library code for it.
 */
export function PageLoader() {
  return (
    <div
      data-testid={testIds.pageLoader}
      role="status"
      aria-label="Loading"
      style={{ display: 'grid', placeItems: 'center', minHeight: '50vh' }}
    >
      <style>{'@keyframes page-loader-spin { to { transform: rotate(360deg); } }'}</style>
      <div style={spinnerStyle} />
    </div>
  );
}
