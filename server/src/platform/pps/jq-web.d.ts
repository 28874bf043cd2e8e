/** jq-web (jq 1.7 built to WebAssembly with Emscripten): the module resolves to `{json, raw}`. */
declare module 'jq-web' {
  export interface JqError extends Error {
    exitCode?: number;
    stderr?: string;
  }
  export interface Jq {
    /** Runs jq on a JSON text; returns stdout (undefined when jq printed nothing); throws JqError. */
    raw(json: string, filter: string, flags?: string[]): string | undefined;
    json(value: unknown, filter: string): unknown;
  }
  const jq: Promise<Jq>;
  export default jq;
}
