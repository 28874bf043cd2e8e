/**
 * The part of @hanazuki/node-jsonnet that RenderTemplate uses. The package ships types, but its
 * package.json "exports" map hides them from TypeScript's module resolution, and they are older
 * than the addon (2.1.0 names the limits setMaxStack / setMaxTrace).
 */
declare module '@hanazuki/node-jsonnet' {
  export class Jsonnet {
    setMaxStack(value: number): void;
    setMaxTrace(value: number): void;
    tlaString(key: string, value: string): this;
    evaluateSnippet(snippet: string, filename?: string): Promise<string>;
  }
  export class JsonnetError extends Error {}
}
