import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  PanelResizeHandle,
  ResizablePanel,
  ResizablePanels,
  panelLayoutStorageKey,
  usePanelGroup,
} from './ResizablePanels';

// jsdom has no layout: give every element a 1000 px box and a ResizeObserver that does nothing.
const GROUP_WIDTH = 1000;
beforeAll(() => {
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(GROUP_WIDTH);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(500);
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(
    new DOMRect(0, 0, GROUP_WIDTH, 500),
  );
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

afterEach(() => {
  vi.useRealTimers();
});

function TwoPanels({ saveId, minSize }: { saveId?: string; minSize?: string }) {
  return (
    <ResizablePanels saveId={saveId}>
      <ResizablePanel id="tree" defaultSize="30" minSize={minSize}>
        Tree
      </ResizablePanel>
      <PanelResizeHandle />
      <ResizablePanel id="preview">Preview</ResizablePanel>
    </ResizablePanels>
  );
}

const handleValue = () =>
  Number(screen.getByRole('separator', { name: 'Resize panels' }).getAttribute('aria-valuenow'));

describe('ResizablePanels', () => {
  it('renders a focusable resize handle between panels that starts at the default size', () => {
    render(<TwoPanels />);
    const handle = screen.getByRole('separator', { name: 'Resize panels' });
    handle.focus();
    expect(handle).toHaveFocus();
    expect(handleValue()).toBeCloseTo(30);
  });

  it('moves 10% per arrow key and 100% with Shift, within min sizes and a 100% total', () => {
    render(<TwoPanels minSize="20" />);
    const handle = screen.getByRole('separator', { name: 'Resize panels' });

    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    expect(handleValue()).toBeCloseTo(40);
    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    expect(handleValue()).toBeCloseTo(20);
    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    expect(handleValue()).toBeCloseTo(20);
    fireEvent.keyDown(handle, { key: 'ArrowRight', shiftKey: true });
    expect(handleValue()).toBeCloseTo(100);
  });

  it('saves the layout under the save id 100 ms after a change and restores it', () => {
    vi.useFakeTimers();
    const key = panelLayoutStorageKey('file-browser');
    const { unmount } = render(<TwoPanels saveId="file-browser" />);
    act(() => vi.advanceTimersByTime(100));
    localStorage.removeItem(key);

    fireEvent.keyDown(screen.getByRole('separator'), { key: 'ArrowRight' });
    act(() => vi.advanceTimersByTime(99));
    expect(localStorage.getItem(key)).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    const saved = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, number>;
    expect(saved.tree).toBeCloseTo(40);
    expect((saved.tree ?? 0) + (saved.preview ?? 0)).toBeCloseTo(100);

    unmount();
    render(<TwoPanels saveId="file-browser" />);
    expect(handleValue()).toBeCloseTo(40);
  });

  it('throws when panel components are used outside a panel group', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<ResizablePanel id="lonely" />)).toThrow(
      'Panel components must be used within a panel group',
    );
    expect(() => render(<PanelResizeHandle />)).toThrow(
      'Panel components must be used within a panel group',
    );
    function GroupReader() {
      usePanelGroup();
      return null;
    }
    expect(() => render(<GroupReader />)).toThrow(/panel group/);
  });
});
