import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FullPagePanelModal } from './FullPagePanelModal';

describe('FullPagePanelModal', () => {
  it('closes from the Exit button of the right panel, using the keyboard', async () => {
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(
      <FullPagePanelModal open onClose={onClose} title="Job" rightPanel={<p>Job details</p>}>
        Logs
      </FullPagePanelModal>,
    );
    const rightPanel = screen.getByRole('complementary', { name: 'Details panel' });
    expect(rightPanel).toHaveTextContent('Job details');

    screen.getByRole('button', { name: 'Exit' }).focus();
    await user.keyboard('{Enter}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('opens, closes and expands the left panel', async () => {
    const user = userEvent.setup();
    render(
      <FullPagePanelModal
        open
        onClose={() => {}}
        title="Files"
        leftPanel={<p>Tree</p>}
        leftPanelLabel="File tree"
      >
        Preview
      </FullPagePanelModal>,
    );
    const toggle = screen.getByRole('button', { name: 'Close side panel' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAttribute('title', 'Close side panel');
    expect(screen.getByRole('complementary', { name: 'File tree' })).toBeVisible();

    const expand = screen.getByRole('button', { name: 'Expand side panel' });
    expect(expand).toHaveAttribute('aria-pressed', 'false');
    expect(expand).toHaveAttribute('title', 'Expand side panel');
    expand.focus();
    await user.keyboard(' ');
    // A toggle keeps its name; its pressed state and tooltip say it is expanded.
    expect(expand).toHaveAccessibleName('Expand side panel');
    expect(expand).toHaveAttribute('aria-pressed', 'true');
    expect(expand).toHaveAttribute('title', 'Collapse side panel');
    expect(screen.getByRole('complementary', { name: 'File tree' }).className).toMatch(/expanded/);
    await user.click(expand);
    expect(expand).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('complementary', { name: 'File tree' }).className).not.toMatch(
      /expanded/,
    );

    await user.click(toggle);
    expect(toggle).toHaveAccessibleName('Open side panel');
    expect(toggle).toHaveAttribute('title', 'Open side panel');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('complementary', { name: 'File tree' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Expand side panel' })).not.toBeInTheDocument();
    expect(toggle).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(toggle).toHaveAccessibleName('Close side panel');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('complementary', { name: 'File tree' })).toBeVisible();
  });

  it("draws its controls as antd buttons with the console's icons", () => {
    render(
      <FullPagePanelModal
        open
        onClose={() => {}}
        title="Job"
        leftPanel={<p>Datums</p>}
        rightPanel={<p>Summary</p>}
      />,
    );
    const icons = {
      'Close side panel': 'menu-fold',
      'Expand side panel': 'arrows-alt',
      Exit: 'arrow-left',
    };
    for (const [name, icon] of Object.entries(icons)) {
      const button = screen.getByRole('button', { name });
      expect(button).toHaveClass('ant-btn', 'ant-btn-sm');
      expect(button.querySelector('svg')).toHaveAttribute('data-icon', icon);
    }
  });

  it('renders no side panels when none are given', () => {
    render(<FullPagePanelModal open onClose={() => {}} title="Plain" />);
    expect(screen.queryByRole('complementary')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Exit' })).not.toBeInTheDocument();
  });
});
