/** Plain styles for the header's controls: the entry chunk carries no component library code. */
export const headerButtonStyle = {
  font: 'inherit',
  fontSize: 13,
  display: 'inline-flex',
  alignItems: 'center',
  gap: 6,
  padding: '3px 10px',
  border: '1px solid rgba(255, 255, 255, 0.4)',
  borderRadius: 6,
  background: 'transparent',
  color: 'var(--ivory-header-text)',
  cursor: 'pointer',
} as const;

/** The header's links: light on the dark bar. */
export const headerLinkStyle = {
  color: 'var(--ivory-header-text)',
  textDecoration: 'none',
  display: 'inline-flex',
  alignItems: 'center',
  gap: 6,
} as const;
