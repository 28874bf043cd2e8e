import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Select, type SelectOption } from './Select';

const OPTIONS: SelectOption[] = [
  { value: 'asc', label: 'Ascending' },
  { value: 'desc', label: 'Descending' },
  { value: 'none', label: 'Unsorted', disabled: true },
  { value: 'created', label: 'Created' },
];

function ControlledSelect({
  onChange = () => {},
  initial,
}: {
  onChange?: (value: string) => void;
  initial?: string;
}) {
  const [value, setValue] = useState(initial);
  return (
    <Select
      aria-label="Sort order"
      options={OPTIONS}
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

async function focusCombobox() {
  const user = userEvent.setup();
  render(<ControlledSelect />);
  await user.tab();
  const combobox = screen.getByRole('combobox', { name: 'Sort order' });
  expect(combobox).toHaveFocus();
  return { user, combobox };
}

describe('Select', () => {
  it('shows the default placeholder while nothing is selected', () => {
    render(<ControlledSelect />);
    expect(screen.getByRole('combobox')).toHaveTextContent('Select an option');
    expect(screen.getByRole('combobox')).toHaveAttribute('aria-expanded', 'false');
  });

  it('opens with Enter, moves with the arrows past disabled options and selects with Enter', async () => {
    const { user, combobox } = await focusCombobox();
    await user.keyboard('{Enter}');
    expect(combobox).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('listbox')).toBeVisible();
    const activeId = () => combobox.getAttribute('aria-activedescendant');
    expect(activeId()).toBe(screen.getByRole('option', { name: 'Ascending' }).id);

    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(activeId()).toBe(screen.getByRole('option', { name: 'Created' }).id);
    await user.keyboard('{ArrowUp}');
    expect(activeId()).toBe(screen.getByRole('option', { name: 'Descending' }).id);

    await user.keyboard('{Enter}');
    expect(combobox).toHaveAttribute('aria-expanded', 'false');
    expect(combobox).toHaveTextContent('Descending');
    expect(combobox).not.toHaveAttribute('aria-activedescendant');
    expect(combobox).toHaveFocus();
  });

  it('opens and selects with Space', async () => {
    const { user, combobox } = await focusCombobox();
    await user.keyboard(' ');
    await user.keyboard('{ArrowDown} ');
    expect(combobox).toHaveTextContent('Descending');
    await user.keyboard(' ');
    expect(screen.getByRole('option', { name: 'Descending', hidden: true })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  it('closes without a change on Escape', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<ControlledSelect onChange={onChange} initial="asc" />);
    const combobox = screen.getByRole('combobox');
    await user.tab();
    await user.keyboard('{ArrowDown}{ArrowDown}{Escape}');
    expect(combobox).toHaveAttribute('aria-expanded', 'false');
    expect(combobox).toHaveTextContent('Ascending');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('closes with the active option selected on Alt+ArrowUp', async () => {
    const { user, combobox } = await focusCombobox();
    await user.keyboard('{ArrowDown}{End}');
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    expect(combobox).toHaveAttribute('aria-expanded', 'false');
    expect(combobox).toHaveTextContent('Created');
  });

  it('selects an option by pointer', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<ControlledSelect onChange={onChange} />);
    await user.click(screen.getByRole('combobox'));
    await user.click(screen.getByRole('option', { name: 'Created' }));
    expect(onChange).toHaveBeenCalledWith('created');
  });
});
