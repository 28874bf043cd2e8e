import type { ReactNode } from 'react';

/**
 * A value that wraps as a whole — a date, a size, an ID — so a narrow table cell moves it to its
 * own line rather than breaking it in the middle ("2026-11-" / "28").
 */
export function NoWrap({ children }: { children: ReactNode }) {
  return <span className="ivory-nowrap">{children}</span>;
}
