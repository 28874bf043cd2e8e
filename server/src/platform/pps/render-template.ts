import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { invalidArgument } from '../../errors.ts';
import { checkJsonDepth } from '../json-limits.ts';
import { pps_v2 } from '@ivory/api/proto';
import type { MethodRegistry } from '../platform.ts';
import { typedUnary } from '../typed-method.ts';

/** Templates larger than this are refused (3). */
const maxTemplateBytes = 1024 * 1024;

/**
 * RenderTemplate {template, args} → {json, specs}: evaluates a Jsonnet pipeline template (with
 * libjsonnet, the @hanazuki/node-jsonnet addon) passing each entry of `args` as a top-level
 * string argument, like `pachctl create pipeline --jsonnet t.jsonnet --arg k=v`. `json` is the
 * evaluated document; `specs` are the pipeline specs it holds (one object, or a list of objects),
 * returned as written in the template (CreatePipelineRequest JSON, no defaults applied).
 * A template that fails to evaluate, or whose result is neither an object nor a list of
 * objects, answers 3 with libjsonnet's message.
 *
 * Templates come from API callers and are evaluated on the server, so file access is refused:
 * `import`, `importstr` and `importbin` (outside strings and comments) answer 3 before
 * evaluation — a template must be self-contained.
 */
export function registerRenderTemplateApi(methods: MethodRegistry): void {
  methods.set(
    'pps_v2.API/RenderTemplate',
    typedUnary(pps_v2.RenderTemplateRequestSchema, async ({ template, args }) => {
      if (!template.trim()) throw invalidArgument('template is required');
      if (Buffer.byteLength(template) > maxTemplateBytes)
        throw invalidArgument(`template is larger than ${maxTemplateBytes} bytes`);
      if (usesImport(template))
        throw invalidArgument(
          'template imports a file: imports are not allowed in templates rendered by the server',
        );
      const json = await evaluate(template, args);
      checkJsonDepth(json, 'the rendered template');
      const value: unknown = JSON.parse(json);
      const list = Array.isArray(value) ? value : [value];
      if (list.some((spec) => spec === null || typeof spec !== 'object' || Array.isArray(spec)))
        throw invalidArgument('the template must evaluate to a pipeline spec or a list of them');
      return { json, specs: list };
    }),
  );
}

const evaluator = fileURLToPath(new URL('./jsonnet-evaluator.mjs', import.meta.url));
/** How long an evaluation may take. */
const evaluationTimeoutMs = 30_000;

/**
 * Evaluates a template with libjsonnet in a process of its own (jsonnet-evaluator.mjs): its
 * native parser recurses, and a deeply nested template crashed the server with it. Answers the
 * JSON text, or throws 3 with libjsonnet's message (or why the evaluator ended).
 */
function evaluate(template: string, args: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [evaluator],
      { timeout: evaluationTimeoutMs, maxBuffer: 64 * 1024 * 1024, env: {} },
      (error, stdout) => {
        let answer: { json?: string; error?: string } = {};
        try {
          answer = JSON.parse(stdout) as typeof answer;
        } catch {
          // no answer: it crashed or was killed
        }
        if (typeof answer.json === 'string') return resolve(answer.json);
        const why =
          answer.error ??
          (error?.killed
            ? `it took longer than ${evaluationTimeoutMs / 1000}s`
            : `the evaluator stopped (${error?.signal ?? error?.code ?? 'no answer'}): the template nests too deeply`);
        reject(invalidArgument(`template evaluation failed: ${why}`));
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(JSON.stringify({ template, args }));
  });
}

/** True when the Jsonnet source has an import keyword outside strings and comments. */
export function usesImport(source: string): boolean {
  let code = '';
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      i = skipTo(source, '\n', i);
    } else if (c === '#') {
      i = skipTo(source, '\n', i);
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (source.startsWith('|||', i)) {
      // Text block: ends at a line whose first non-blank characters are |||.
      const close = /\n[ \t]*\|\|\|/.exec(source.slice(i + 3));
      i = close ? i + 3 + close.index + close[0].length : n;
    } else if (c === '@' && (next === '"' || next === "'")) {
      // Verbatim string: the quote doubled is an escaped quote.
      let j = i + 2;
      while (j < n) {
        if (source[j] === next) {
          if (source[j + 1] === next) j += 2;
          else break;
        } else j += 1;
      }
      i = j + 1;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && source[j] !== c) j += source[j] === '\\' ? 2 : 1;
      i = j + 1;
    } else {
      code += c;
      i += 1;
      continue;
    }
    code += ' ';
  }
  return /(^|[^A-Za-z0-9_])import(str|bin)?(?![A-Za-z0-9_])/.test(code);
}

function skipTo(source: string, char: string, from: number): number {
  const end = source.indexOf(char, from);
  return end < 0 ? source.length : end;
}
