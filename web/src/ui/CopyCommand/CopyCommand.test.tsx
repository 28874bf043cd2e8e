import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../Toast/Toast';
import { CopyCommand } from './CopyCommand';

const COMMAND = 'pachctl connect grpc://localhost:30650';

function renderCopyCommand() {
  return render(
    <ToastProvider>
      <CopyCommand command={COMMAND} />
    </ToastProvider>,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('CopyCommand', () => {
  it('copies the command from the keyboard and shows a toast', async () => {
    const user = userEvent.setup();
    renderCopyCommand();
    expect(screen.getByText(COMMAND)).toBeInTheDocument();

    await user.tab();
    expect(screen.getByRole('button', { name: 'Copy command' })).toHaveFocus();
    await user.keyboard('{Enter}');

    expect(await navigator.clipboard.readText()).toBe(COMMAND);
    expect(await screen.findByRole('status')).toHaveTextContent('Command Line Copied');
  });

  it('only logs when copying fails', async () => {
    const user = userEvent.setup();
    const failure = new Error('denied');
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(failure);
    const logError = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderCopyCommand();

    await user.click(screen.getByRole('button', { name: 'Copy command' }));

    await vi.waitFor(() => expect(logError).toHaveBeenCalledWith(failure));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
