import {
  autocompletion,
  type CompletionContext,
  type CompletionResult,
} from '@codemirror/autocomplete';
import { json } from '@codemirror/lang-json';
import { syntaxTree } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import CodeMirror from '@uiw/react-codemirror';
import { useColorMode } from '../../ui/theme/color-mode.tsx';
import { useEffect, useMemo, useRef } from 'react';
import { testIds } from '../../test-ids.ts';
import { schemaKeys, type SpecProblem } from './json-positions.ts';

type Schema = Record<string, unknown>;

/** The keys (and array indexes) from the document root down to the object around `pos`. */
function pathAt(context: CompletionContext): string[] {
  const path: string[] = [];
  const node = syntaxTree(context.state).resolveInner(context.pos, -1);
  const text = (from: number, to: number) => context.state.sliceDoc(from, to);
  // The key being typed is not part of the path.
  let skipFirstProperty = node.name === 'PropertyName' || node.parent?.name === 'PropertyName';
  for (let n: typeof node | null = node; n; n = n.parent) {
    if (n.name === 'Property') {
      if (skipFirstProperty) {
        skipFirstProperty = false;
        continue;
      }
      const name = n.getChild('PropertyName');
      if (name) path.unshift(text(name.from, name.to).replace(/^"|"$/g, ''));
    } else if (n.name === 'Array' && n.parent) {
      path.unshift('0');
    } else if (n.name === 'Object') {
      skipFirstProperty = false;
    }
  }
  return path;
}

function schemaCompletion(schema: Schema | null) {
  return (context: CompletionContext): CompletionResult | null => {
    if (!schema) return null;
    const word = context.matchBefore(/"?[\w$]*/);
    const node = syntaxTree(context.state).resolveInner(context.pos, -1);
    const inKey =
      node.name === 'PropertyName' ||
      node.name === 'Object' ||
      node.name === '{' ||
      node.name === ',' ||
      (node.name === '⚠' && node.parent?.name === 'Object');
    if (!inKey && !context.explicit) return null;
    const keys = schemaKeys(schema, pathAt(context));
    if (keys.length === 0) return null;
    const from = word ? word.from : context.pos;
    return {
      from,
      options: keys.map((k) => ({
        label: `"${k.name}"`,
        displayLabel: k.name,
        detail: k.type,
        info: k.description || undefined,
        type: 'property',
        apply: `"${k.name}": `,
      })),
      validFor: /^"?[\w$]*$/,
    };
  };
}

const DARK_GROUND = '#16181d';
const DARK_CONTRAST = EditorView.theme(
  {
    '&.cm-editor': { backgroundColor: DARK_GROUND },
    '&.cm-editor .cm-gutters': { backgroundColor: DARK_GROUND, color: '#abb2bf' },
    '&.cm-editor .cm-activeLine, &.cm-editor .cm-activeLineGutter': {
      backgroundColor: '#1d2026',
    },
  },
  { dark: true },
);

/**
 * A JSON editor (CodeMirror) with key completion from a JSON Schema and the given problems
 * shown inline (underlined, in the gutter). Lazily loaded: CodeMirror is not in the entry chunk.
 */
export default function SpecEditor({
  value,
  onChange,
  schema,
  problems,
  height = '480px',
  testId = testIds.specEditor,
  label = 'Pipeline spec (JSON)',
}: {
  value: string;
  onChange: (value: string) => void;
  schema: Schema | null;
  problems: readonly SpecProblem[];
  height?: string;
  testId?: string;
  /** Names the editor for assistive technology. */
  label?: string;
}) {
  const viewRef = useRef<EditorView | null>(null);
  // The editor's own theme follows the console's, so its text keeps its contrast in both.
  const { mode } = useColorMode();
  const extensions = useMemo(
    () => [
      json(),
      lintGutter(),
      autocompletion({ override: [schemaCompletion(schema)] }),
      EditorView.contentAttributes.of({ 'aria-label': label }),
      // The dark theme on a darker ground: its syntax colours and line numbers keep 4.5:1.
      mode === 'dark' ? DARK_CONTRAST : [],
    ],
    [schema, label, mode],
  );
  useEffect(() => {
    const view = viewRef.current;
    if (!view) return;
    const length = view.state.doc.length;
    const diagnostics: Diagnostic[] = problems.map((p) => ({
      from: Math.min(p.from, length),
      to: Math.min(Math.max(p.to, p.from), length),
      severity: 'error',
      message: p.message,
    }));
    view.dispatch(setDiagnostics(view.state, diagnostics));
  }, [problems, value]);
  return (
    <div data-testid={testId}>
      <CodeMirror
        value={value}
        height={height}
        extensions={extensions}
        onChange={onChange}
        onCreateEditor={(view) => {
          viewRef.current = view;
          // The scrolling part is reachable by keyboard, like any scrolling region.
          view.scrollDOM.tabIndex = 0;
        }}
        basicSetup={{ lintKeymap: true }}
        theme={mode}
      />
    </div>
  );
}
