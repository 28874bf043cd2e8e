import { LanguageDescription, type LanguageSupport } from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import { EditorView } from '@codemirror/view';
import CodeMirror from '@uiw/react-codemirror';
import { useEffect, useState } from 'react';
import { testIds } from '../../../test-ids.ts';
import { Loading } from './Loading.tsx';
import type { RendererProps } from './types.ts';
import { useText } from './useText.ts';

export { prefetchText as prefetch } from './useText.ts';

/** The CodeMirror language for a file: by the registry's language name, else by file name. */
export function findLanguage(name: string, language: string): LanguageDescription | null {
  return (
    (language ? LanguageDescription.matchLanguageName(languages, language, true) : null) ??
    LanguageDescription.matchFilename(languages, name)
  );
}

/** Read-only text with syntax highlighting by extension. */
export function SourceView({
  text,
  name,
  language,
}: {
  text: string;
  name: string;
  language: string;
}) {
  const [support, setSupport] = useState<LanguageSupport | null>(null);
  useEffect(() => {
    let live = true;
    const description = findLanguage(name, language);
    if (description) void description.load().then((loaded) => live && setSupport(loaded));
    return () => {
      live = false;
    };
  }, [name, language]);
  return (
    <div data-testid={testIds.sourceView} data-language={support ? language || name : ''}>
      <CodeMirror
        value={text}
        editable={false}
        readOnly
        basicSetup={{ foldGutter: false, highlightActiveLine: false }}
        maxHeight="520px"
        extensions={[EditorView.lineWrapping, ...(support ? [support] : [])]}
      />
    </div>
  );
}

export default function CodePreview({ url, name, language }: RendererProps) {
  const text = useText(url);
  return (
    <Loading pending={text.isPending} error={text.error}>
      {() => <SourceView text={text.data ?? ''} name={name} language={language} />}
    </Loading>
  );
}
