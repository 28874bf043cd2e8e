import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST_DEFAULT_DURATION_MS, ToastProvider, useToast, type ToastOptions } from './Toast';

function ToastButton({ options }: { options: ToastOptions }) {
  const toast = useToast();
  return <button onClick={() => toast(options)}>Notify</button>;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Toast', () => {
  it('shows a success toast that fades at 5000 ms and is removed at 6000 ms by default', () => {
    vi.useFakeTimers();
    render(
      <ToastProvider>
        <ToastButton options={{ content: 'Saved' }} />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Notify' }));

    const toast = screen.getByRole('status');
    expect(toast).toHaveTextContent('Saved');
    expect(toast).toHaveAttribute('data-type', 'success');
    expect(TOAST_DEFAULT_DURATION_MS).toBe(6000);

    act(() => vi.advanceTimersByTime(4999));
    expect(toast.className).not.toMatch(/fading/);
    act(() => vi.advanceTimersByTime(1));
    expect(toast.className).toMatch(/fading/);
    act(() => vi.advanceTimersByTime(999));
    expect(screen.getByRole('status')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('honours a custom type and duration', () => {
    vi.useFakeTimers();
    render(
      <ToastProvider>
        <ToastButton options={{ content: 'Failed', type: 'error', duration: 2000 }} />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Notify' }));
    expect(screen.getByRole('status')).toHaveAttribute('data-type', 'error');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('status').className).toMatch(/fading/);
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('can be dismissed from the keyboard without moving focus away from the page', async () => {
    const user = userEvent.setup();
    render(
      <ToastProvider>
        <ToastButton options={{ content: 'Saved' }} />
      </ToastProvider>,
    );
    const notify = screen.getByRole('button', { name: 'Notify' });
    notify.focus();
    await user.keyboard('{Enter}');
    expect(notify).toHaveFocus();

    await user.tab();
    expect(screen.getByRole('button', { name: 'Dismiss notification' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('throws when used outside a ToastProvider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<ToastButton options={{ content: 'x' }} />)).toThrow(/ToastProvider/);
    vi.restoreAllMocks();
  });
});
