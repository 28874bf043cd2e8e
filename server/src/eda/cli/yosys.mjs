// Yosys (the WebAssembly build from npm) on the design's files, which it sees under the same
// relative paths as in the bolt (rtl/alu.v), so its messages name the files the designer knows.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Verilog sources under `dir` (relative paths), the testbenches and the plugin left out. */
export function sources(dir) {
  const out = [];
  const walk = (relative) => {
    for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name !== 'tb' && entry.name !== 'user_plugin') walk(child);
      } else if (/\.s?v$/.test(entry.name) && !/_tb\.s?v$/.test(entry.name)) out.push(child);
    }
  };
  if (existsSync(dir)) walk('');
  return out.sort();
}

/**
 * The sources of `rtlDir` as Yosys's file tree, under `prefix` (e.g. "rtl"): {rtl: {"alu.v":
 * "…"}}, and their paths as Yosys reads them ("rtl/alu.v").
 */
export function designTree(rtlDir, prefix) {
  const names = sources(rtlDir);
  const tree = {};
  for (const name of names) {
    let node = tree;
    const parts = `${prefix}/${name}`.split('/');
    for (const part of parts.slice(0, -1)) node = node[part] ??= {};
    node[parts[parts.length - 1]] = readFileSync(path.join(rtlDir, name), 'utf8');
  }
  return { tree, paths: names.map((name) => `${prefix}/${name}`), texts: textsOf(tree, '') };
}

function textsOf(tree, base) {
  const out = {};
  for (const [name, value] of Object.entries(tree)) {
    const full = base ? `${base}/${name}` : name;
    if (typeof value === 'string') out[full] = value;
    else Object.assign(out, textsOf(value, full));
  }
  return out;
}

/** A file of Yosys's output tree as text ('' when it wrote none). */
export function outputText(tree, name) {
  const value = tree?.[name];
  if (value === undefined) return '';
  return typeof value === 'string' ? value : Buffer.from(value).toString('utf8');
}

/**
 * Yosys's message lines that say what failed: "rtl/x.v:16: ERROR: syntax error…" (file and line
 * first, as the designer's editor reads them) or "ERROR: …".
 */
export function errorLines(log) {
  return log
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /(^|:\s)ERROR:/.test(line));
}

export class YosysFailure extends Error {
  constructor(message, log) {
    super(message);
    this.log = log;
  }
}

/** Runs a Yosys script on a file tree; its log and the tree afterwards (with files it wrote). */
export async function yosys(script, files) {
  const { runYosys } = await import('@yowasp/yosys');
  let log = '';
  const collect = (bytes) => {
    if (bytes) log += Buffer.from(bytes).toString('utf8');
  };
  try {
    const tree = await runYosys(['-p', script], files, {
      stdout: collect,
      stderr: collect,
      decodeASCII: true,
    });
    return { log, files: tree ?? {} };
  } catch (error) {
    const first = errorLines(log)[0];
    throw new YosysFailure(first ?? `yosys failed (${error.message})`, log);
  }
}

export const warnings = (log) => log.split('\n').filter((line) => /^Warning:/.test(line));
