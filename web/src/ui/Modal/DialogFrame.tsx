import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import styles from './DialogFrame.module.css';

/** How long a dialog stays mounted, fading out, after `open` turns false. */
export const MODAL_EXIT_MS = 500;

const FOCUSABLE_SELECTOR = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/** A dialog's fields: what focus goes to first when it opens (before its buttons and ×). */
const FIELD_SELECTOR = [
  'input:not([disabled]):not([type="hidden"]):not([hidden])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[contenteditable="true"]',
].join(',');

/**
 * Makes everything on the page but `keep` inert (out of the accessibility tree and of reach)
 * while a dialog is open; returns the undo. Nested dialogs stack: each hides what is under it.
 */
function inertBesides(keep: HTMLElement): () => void {
  const hidden = Array.from(document.body.children).filter(
    (element): element is HTMLElement =>
      element instanceof HTMLElement && element !== keep && !element.hasAttribute('inert'),
  );
  for (const element of hidden) element.setAttribute('inert', '');
  return () => {
    for (const element of hidden) element.removeAttribute('inert');
  };
}

function focusableElementsIn(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE_SELECTOR));
}

export type DialogFrameProps = {
  open: boolean;
  onClose: () => void;
  /** id of the element that names the dialog (its title). */
  titleId: string;
  dialogClassName?: string;
  children: ReactNode;
};

/**
 * The part every modal shares: a portal with a backdrop, role="dialog", focus moved in on open
 * and back to the opener on close, Tab/Shift+Tab kept inside, Escape closing, and a
 * MODAL_EXIT_MS exit animation before the dialog leaves the DOM.
 */
export function DialogFrame({
  open,
  onClose,
  titleId,
  dialogClassName,
  children,
}: DialogFrameProps) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const backdropRef = useRef<HTMLDivElement>(null);
  const [wasOpen, setWasOpen] = useState(open);
  const [closing, setClosing] = useState(false);
  if (open !== wasOpen) {
    setWasOpen(open);
    setClosing(!open);
  }

  useEffect(() => {
    if (!closing) return;
    const timer = setTimeout(() => setClosing(false), MODAL_EXIT_MS);
    return () => clearTimeout(timer);
  }, [closing]);

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current;
    const restore = backdropRef.current ? inertBesides(backdropRef.current) : () => {};
    // The first field when there is one (the title is read with it); else the dialog itself,
    // so a reader hears its title and Tab reaches its first control.
    if (dialog) (dialog.querySelector<HTMLElement>(FIELD_SELECTOR) ?? dialog).focus();
    return () => {
      restore();
      opener?.focus();
    };
  }, [open]);

  if (!open && !closing) return null;

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // A key a widget inside already handled (an editor's popup closing on Escape) stays there.
    if (event.defaultPrevented) return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab') return;
    const dialog = event.currentTarget;
    const focusable = focusableElementsIn(dialog);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialog)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || active === dialog)) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div
      ref={backdropRef}
      className={`${styles.backdrop} ${closing ? styles.closing : ''}`}
      data-state={closing ? 'closing' : 'open'}
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`${styles.dialog} ${closing ? styles.closing : ''} ${dialogClassName ?? ''}`}
        onKeyDown={handleKeyDown}
      >
        {children}
      </div>
    </div>,
    document.body,
  );
}
