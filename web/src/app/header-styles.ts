/** Plain styles for the header's controls: the entry chunk carries no component library code. */
export const headerButtonStyle = {
  font: 'inherit',
  fontSize: 13,
  padding: '2px 10px',
  border: '1px solid #d9d9d9',
  borderRadius: 6,
  background: '#fff',
  cursor: 'pointer',
} as const;
