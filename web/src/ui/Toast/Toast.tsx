import CloseOutlined from '@ant-design/icons-svg/es/asn/CloseOutlined';
import { Icon } from '../Icon/index.ts';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import styles from './Toast.module.css';

export const TOAST_DEFAULT_DURATION_MS = 6000;
/** A toast starts fading this long before it is removed. */
export const TOAST_FADE_MS = 1000;

export type ToastType = 'success' | 'error';

export type ToastOptions = {
  content: ReactNode;
  type?: ToastType;
  duration?: number;
};

type ToastRecord = Required<ToastOptions> & { id: number };

type ShowToast = (options: ToastOptions) => void;

const ToastContext = createContext<ShowToast | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastRecord[]>([]);
  const nextId = useRef(0);

  const showToast = useCallback<ShowToast>(
    ({ content, type = 'success', duration = TOAST_DEFAULT_DURATION_MS }) => {
      nextId.current += 1;
      const id = nextId.current;
      setToasts((current) => [...current, { id, content, type, duration }]);
    },
    [],
  );

  const removeToast = useCallback((id: number) => {
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  return (
    <ToastContext.Provider value={showToast}>
      {children}
      <div className={styles.region} role="region" aria-label="Notifications">
        {toasts.map((toast) => (
          <ToastMessage key={toast.id} toast={toast} onRemove={removeToast} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastMessage({ toast, onRemove }: { toast: ToastRecord; onRemove: (id: number) => void }) {
  const [fading, setFading] = useState(false);

  useEffect(() => {
    const fadeTimer = setTimeout(
      () => setFading(true),
      Math.max(0, toast.duration - TOAST_FADE_MS),
    );
    const removeTimer = setTimeout(() => onRemove(toast.id), toast.duration);
    return () => {
      clearTimeout(fadeTimer);
      clearTimeout(removeTimer);
    };
  }, [toast.id, toast.duration, onRemove]);

  return (
    <div
      role="status"
      data-type={toast.type}
      className={`${styles.toast} ${styles[toast.type]} ${fading ? styles.fading : ''}`}
    >
      <span className={styles.content}>{toast.content}</span>
      <button
        type="button"
        className={styles.dismiss}
        aria-label="Dismiss notification"
        onClick={() => onRemove(toast.id)}
      >
        <Icon icon={CloseOutlined} />
      </button>
    </div>
  );
}

/** Returns `toast({ content, type = 'success', duration = 6000 })`. Needs a ToastProvider above. */
export function useToast(): ShowToast {
  const showToast = useContext(ToastContext);
  if (!showToast) throw new Error('useToast must be used within a ToastProvider');
  return showToast;
}
