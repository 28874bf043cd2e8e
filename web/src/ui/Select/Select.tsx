import DownOutlined from '@ant-design/icons-svg/es/asn/DownOutlined';
import { Icon } from '../Icon/index.ts';
import { useId, useState, type KeyboardEvent } from 'react';
import styles from './Select.module.css';

export const SELECT_PLACEHOLDER = 'Select an option';

export type SelectOption = {
  value: string;
  label: string;
  disabled?: boolean;
};

export type SelectProps = {
  options: SelectOption[];
  value?: string;
  onChange: (value: string) => void;
  placeholder?: string;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  disabled?: boolean;
};

/**
 * A select-only combobox. Closed: Enter, Space, ArrowDown or ArrowUp open it. Open: ArrowUp/Down
 * and Home/End move the active option, Enter/Space or Alt+ArrowUp choose it and close, Escape and
 * Tab close without a change.
 */
export function Select({
  options,
  value,
  onChange,
  placeholder = SELECT_PLACEHOLDER,
  disabled = false,
  ...labelling
}: SelectProps) {
  const listboxId = useId();
  const [open, setOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(-1);

  const selectedIndex = options.findIndex((option) => option.value === value);
  const selected = options[selectedIndex];
  const enabledIndexes = options.flatMap((option, index) => (option.disabled ? [] : [index]));
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  const openList = () => {
    setActiveIndex(selected && !selected.disabled ? selectedIndex : (enabledIndexes[0] ?? -1));
    setOpen(true);
  };

  const choose = (index: number) => {
    const option = options[index];
    if (option && !option.disabled && option.value !== value) onChange(option.value);
    setOpen(false);
  };

  const moveActive = (step: 1 | -1) => {
    const position = enabledIndexes.indexOf(activeIndex);
    const next = enabledIndexes[Math.min(Math.max(position + step, 0), enabledIndexes.length - 1)];
    if (next !== undefined) setActiveIndex(next);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (disabled) return;
    if (!open) {
      if (['Enter', ' ', 'ArrowDown', 'ArrowUp'].includes(event.key)) {
        event.preventDefault();
        openList();
      }
      return;
    }
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        moveActive(1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (event.altKey) choose(activeIndex);
        else moveActive(-1);
        break;
      case 'Home':
        event.preventDefault();
        setActiveIndex(enabledIndexes[0] ?? -1);
        break;
      case 'End':
        event.preventDefault();
        setActiveIndex(enabledIndexes[enabledIndexes.length - 1] ?? -1);
        break;
      case 'Enter':
      case ' ':
        event.preventDefault();
        choose(activeIndex);
        break;
      case 'Escape':
        event.preventDefault();
        setOpen(false);
        break;
      case 'Tab':
        setOpen(false);
        break;
    }
  };

  return (
    <div className={styles.select}>
      <div
        role="combobox"
        tabIndex={disabled ? -1 : 0}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={listboxId}
        aria-activedescendant={open && activeIndex >= 0 ? optionId(activeIndex) : undefined}
        aria-disabled={disabled || undefined}
        className={styles.combobox}
        onClick={() => {
          if (disabled) return;
          if (open) setOpen(false);
          else openList();
        }}
        onKeyDown={handleKeyDown}
        onBlur={() => setOpen(false)}
        {...labelling}
      >
        <span className={selected ? undefined : styles.placeholder}>
          {selected ? selected.label : placeholder}
        </span>
        <span className={styles.arrow} aria-hidden="true">
          <Icon icon={DownOutlined} />
        </span>
      </div>
      <ul role="listbox" id={listboxId} hidden={!open} className={styles.listbox} {...labelling}>
        {options.map((option, index) => (
          <li
            key={option.value}
            id={optionId(index)}
            role="option"
            aria-selected={index === selectedIndex}
            aria-disabled={option.disabled || undefined}
            className={`${styles.option} ${index === activeIndex ? styles.active : ''}`}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(index)}
          >
            {option.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
