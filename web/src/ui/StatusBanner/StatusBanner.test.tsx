import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { StatusBanner } from './StatusBanner';

describe('StatusBanner', () => {
  it.each([
    ['success', 'status', 'false'],
    ['updating', 'status', 'true'],
    ['error', 'alert', 'false'],
  ] as const)('%s renders with role %s', (variant, role, busy) => {
    render(<StatusBanner variant={variant}>Pipeline {variant}</StatusBanner>);
    const banner = screen.getByRole(role);
    expect(banner).toHaveTextContent(`Pipeline ${variant}`);
    expect(banner).toHaveAttribute('aria-busy', busy);
    expect(banner).toHaveAttribute('data-variant', variant);
  });

  it('does not take focus and can be dismissed from the keyboard', async () => {
    const onDismiss = vi.fn();
    const user = userEvent.setup();
    render(
      <StatusBanner variant="success" onDismiss={onDismiss}>
        Saved
      </StatusBanner>,
    );
    expect(document.body).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Dismiss' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });

  it('has no dismiss button without onDismiss', () => {
    render(<StatusBanner variant="error">Failed</StatusBanner>);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
