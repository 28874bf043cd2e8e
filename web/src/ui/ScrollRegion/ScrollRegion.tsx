import type { ReactNode } from 'react';

/**
 * A named region that scrolls sideways when its content (a wide table) is wider than the panel,
 * reachable by keyboard so it can be scrolled without a mouse. Tables inside it need no
 * `scroll.x` of their own, whose hidden measuring row would repeat focusable column titles.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      {children}
    </div>
  );
}
