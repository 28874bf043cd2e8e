export { ToastProvider, useToast, TOAST_DEFAULT_DURATION_MS, TOAST_FADE_MS } from './Toast';
export type { ToastOptions, ToastType } from './Toast';
