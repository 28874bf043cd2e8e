/**
 * The header's links: light on the dark bar. Plain styles: the entry chunk carries no component
 * library code. (Its buttons are styled by `.ivory-header-button` in global.css.)
 */
export const headerLinkStyle = {
  color: 'var(--ivory-header-text)',
  textDecoration: 'none',
  display: 'inline-flex',
  alignItems: 'center',
  gap: 6,
} as const;
