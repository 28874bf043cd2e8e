import { useState } from 'react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmModal, Modal } from './Modal';
import { MODAL_EXIT_MS } from './DialogFrame';

function ModalWithOpener({ onConfirm = () => {} }: { onConfirm?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Open settings</button>
      <Modal open={open} onClose={() => setOpen(false)} onConfirm={onConfirm} title="Settings">
        <input aria-label="Name" />
      </Modal>
    </>
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Modal', () => {
  it('is a labelled modal dialog in a portal with default Confirm and Cancel buttons', async () => {
    const user = userEvent.setup();
    const { container } = render(<ModalWithOpener />);
    await user.click(screen.getByRole('button', { name: 'Open settings' }));

    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(container).not.toContainElement(dialog);
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it('moves focus to the first field on open and traps Tab and Shift+Tab', async () => {
    const user = userEvent.setup();
    render(<ModalWithOpener />);
    await user.click(screen.getByRole('button', { name: 'Open settings' }));

    const close = screen.getByRole('button', { name: 'Close' });
    const confirm = screen.getByRole('button', { name: 'Confirm' });
    const name = screen.getByRole('textbox', { name: 'Name' });
    expect(name).toHaveFocus();

    await user.tab();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.tab();
    expect(confirm).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab();
    expect(name).toHaveFocus();
    await user.tab({ shift: true });
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(confirm).toHaveFocus();
  });

  it('without a field focuses the dialog itself, not its close button', async () => {
    render(
      <Modal open onClose={() => {}} title="About">
        <p>Text only</p>
      </Modal>,
    );
    expect(screen.getByRole('dialog', { name: 'About' })).toHaveFocus();
  });

  it('takes the page behind it out of reach (inert) while open, and gives it back', async () => {
    const user = userEvent.setup();
    const { container } = render(<ModalWithOpener />);
    await user.click(screen.getByRole('button', { name: 'Open settings' }));
    const page = container.closest('body > *')!;
    expect(page).toHaveAttribute('inert');
    expect(screen.getByRole('dialog').closest('[inert]')).toBeNull();
    await user.keyboard('{Escape}');
    expect(page).not.toHaveAttribute('inert');
  });

  it('closes on Escape, plays the exit animation for 500 ms, then unmounts and refocuses the opener', async () => {
    vi.useFakeTimers();
    render(<ModalWithOpener />);
    const opener = screen.getByRole('button', { name: 'Open settings' });
    opener.focus();
    fireEvent.click(opener);

    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Name' }), { key: 'Escape' });
    const dialog = screen.getByRole('dialog');
    expect(dialog.className).toMatch(/closing/);
    expect(opener).toHaveFocus();

    act(() => vi.advanceTimersByTime(MODAL_EXIT_MS - 1));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(MODAL_EXIT_MS).toBe(500);
  });

  it('calls onConfirm from the keyboard and closes with Cancel', async () => {
    const onConfirm = vi.fn();
    const user = userEvent.setup();
    render(<ModalWithOpener onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'Open settings' }));

    screen.getByRole('button', { name: 'Confirm' }).focus();
    await user.keyboard('{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('dialog').className).toMatch(/closing/);
  });

  it('renames and hides footer buttons and blocks a disabled or loading confirm', async () => {
    const onConfirm = vi.fn();
    const user = userEvent.setup();
    const { rerender } = render(
      <Modal
        open
        onClose={() => {}}
        onConfirm={onConfirm}
        title="Save"
        confirmText="Save"
        hideCancel
        confirmDisabled
      />,
    );
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onConfirm).not.toHaveBeenCalled();

    rerender(
      <Modal
        open
        onClose={() => {}}
        onConfirm={onConfirm}
        title="Save"
        confirmText="Save"
        confirmLoading
      />,
    );
    await user.click(screen.getByRole('button', { name: /Save/ }));
    expect(onConfirm).not.toHaveBeenCalled();
  });
});

describe('ConfirmModal', () => {
  it('asks a question with custom choices', async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    const user = userEvent.setup();
    render(
      <ConfirmModal
        open
        title="Clear uploaded files"
        text="Are you certain you wish to delete the uploaded files?"
        confirmText="YES"
        cancelText="NO"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
    expect(screen.getByRole('dialog', { name: 'Clear uploaded files' })).toHaveTextContent(
      'Are you certain you wish to delete the uploaded files?',
    );
    await user.click(screen.getByRole('button', { name: 'YES' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'NO' }));
    expect(onCancel).toHaveBeenCalledTimes(2);
  });
});
