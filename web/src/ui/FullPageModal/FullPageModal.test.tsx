import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FullPageModal } from './FullPageModal';

describe('FullPageModal', () => {
  it('is a labelled modal dialog that takes focus (itself when it has no field), traps Tab and closes on Escape', async () => {
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(
      <FullPageModal open onClose={onClose} title="Upload">
        <button>Attach files</button>
      </FullPageModal>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Upload' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    // No field inside: the dialog itself takes focus, so its title is read; Tab reaches ×.
    expect(dialog).toHaveFocus();
    const close = screen.getByRole('button', { name: 'Close' });
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Attach files' })).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(close);
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('renders nothing while closed', () => {
    render(<FullPageModal open={false} onClose={() => {}} title="Upload" />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
