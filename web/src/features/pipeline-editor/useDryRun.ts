import { useEffect, useState } from 'react';
import { useApi } from '../../data/api-context.tsx';
import type { ApiClient } from '@ivory/api';
import { problemsFromError, syntaxProblem, type SpecProblem } from './json-positions.ts';

export const DRY_RUN_DELAY_MS = 500;

export interface DryRunState {
  /** The effective document the server would store, or '' while unknown. */
  effective: string;
  problems: SpecProblem[];
  checking: boolean;
}

/**
 * Checks `text` with a server dry run, debounced: JSON syntax is checked locally at once; the
 * dry run (schema validation, defaults merged) runs DRY_RUN_DELAY_MS after the last edit.
 */
export function useDryRun(
  text: string,
  run: (client: ApiClient, text: string, signal: AbortSignal) => Promise<string>,
  enabled = true,
): DryRunState {
  const client = useApi();
  const [state, setState] = useState<DryRunState>({ effective: '', problems: [], checking: false });
  useEffect(() => {
    if (!enabled) return;
    const syntax = syntaxProblem(text);
    if (syntax) {
      setState((s) => ({ ...s, problems: [syntax], checking: false }));
      return;
    }
    const controller = new AbortController();
    setState((s) => ({ ...s, checking: true }));
    const timer = setTimeout(async () => {
      try {
        const effective = await run(client, text, controller.signal);
        if (!controller.signal.aborted) setState({ effective, problems: [], checking: false });
      } catch (error) {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        setState((s) => ({ ...s, problems: problemsFromError(text, message), checking: false }));
      }
    }, DRY_RUN_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [client, text, run, enabled]);
  return state;
}
