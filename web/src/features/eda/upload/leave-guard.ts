import { useEffect, useRef } from 'react';
import { useBlocker, type Blocker } from 'react-router';

/**
 * Guards work that would be lost by leaving: while `dirty`, a route change is blocked (the
 * caller asks the user, then proceeds or resets the returned blocker) and closing or reloading
 * the tab asks the browser's "Leave site?" question. `allowLeave()` lets the next navigation
 * through (the caller's own close or redirect).
 */
export function useLeaveGuard(dirty: boolean): { blocker: Blocker; allowLeave: () => void } {
  const leaving = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !leaving.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
      // Older browsers need returnValue set to show the question.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
  return {
    blocker,
    allowLeave: () => {
      leaving.current = true;
    },
  };
}
