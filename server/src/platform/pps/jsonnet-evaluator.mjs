// Evaluates one Jsonnet template for RenderTemplate (render-template.ts), in a process of its own:
// libjsonnet's parser and std.parseJson recurse in native code, and a deeply nested template
// (a few kilobytes suffice) overflows the stack — a crash that must end this process, never the
// server. Reads {template, args} as JSON on stdin; writes {json} or {error} as JSON on stdout.
import { Jsonnet } from '@hanazuki/node-jsonnet';

let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;
const { template, args } = JSON.parse(input);
const vm = new Jsonnet();
vm.setMaxStack(500);
vm.setMaxTrace(20);
for (const [key, value] of Object.entries(args)) vm.tlaString(key, value);
try {
  const json = await vm.evaluateSnippet(template, 'template.jsonnet');
  process.stdout.write(JSON.stringify({ json }));
} catch (error) {
  process.stdout.write(
    JSON.stringify({ error: error instanceof Error ? error.message : String(error) }),
  );
}
