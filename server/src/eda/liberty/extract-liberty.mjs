#!/usr/bin/env node
// Writes the EDA flow's cell library (sky130_fd_sc_hd_subset.lib, next to this file) from the
// SkyWater SKY130 high-density standard cell library's typical corner:
//
//   node server/src/eda/liberty/extract-liberty.mjs <sky130_fd_sc_hd__tt_025C_1v80.lib> \
//     > server/src/eda/liberty/sky130_fd_sc_hd_subset.lib
//
// Source: https://github.com/google/skywater-pdk-libs-sky130_fd_sc_hd (Apache-2.0), file
// timing/sky130_fd_sc_hd__tt_025C_1v80.lib (the same file is OpenSTA's
// examples/sky130hd_tt.lib.gz). It keeps the cells below as published — area, pins, functions,
// flip-flop and latch descriptions, timing arcs with their delay, transition and constraint
// tables — and drops what the flow does not read: power tables, leakage, power/ground pins and
// the power-related attributes. Nothing is changed or computed.
import { readFileSync } from 'node:fs';

export const keptCells = [
  'inv_1',
  'buf_1',
  'nand2_1',
  'nand3_1',
  'nor2_1',
  'nor3_1',
  'and2_1',
  'and3_1',
  'or2_1',
  'or3_1',
  'xor2_1',
  'xnor2_1',
  'mux2_1',
  'maj3_1',
  'a21oi_1',
  'o21ai_1',
  'a21o_1',
  'o21a_1',
  'a22oi_1',
  'o22ai_1',
  'conb_1',
  'dfxtp_1',
  'dfrtp_1',
  'dfstp_2',
  'dlxtp_1',
].map((name) => `sky130_fd_sc_hd__${name}`);

const droppedGroups = new Set([
  'leakage_power',
  'internal_power',
  'pg_pin',
  'power_lut_template',
  'normalized_driver_waveform',
]);
const droppedAttributes = new Set([
  'related_ground_pin',
  'related_power_pin',
  'power_down_function',
  'driver_waveform_fall',
  'driver_waveform_rise',
  'driver_waveform',
  'cell_leakage_power',
  'related_bias_pin',
]);

/** Parses the liberty text into groups {head, name, args, children} and attribute lines. */
function parse(text) {
  const root = { head: '', name: '', args: '', children: [] };
  const stack = [root];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i].trim();
    if (line === '') continue;
    // An attribute continued on the next lines (values("…", \ "…")).
    while (line.endsWith('\\') && i + 1 < lines.length) line += '\n' + lines[++i].trim();
    const top = stack[stack.length - 1];
    if (line === '}') {
      stack.pop();
      continue;
    }
    const open = /^([A-Za-z_][\w]*)\s*\((.*)\)\s*\{$/.exec(line);
    if (open) {
      const group = { head: line, name: open[1], args: open[2], children: [] };
      top.children.push(group);
      stack.push(group);
      continue;
    }
    top.children.push({ line });
  }
  return root;
}

function attributeName(line) {
  return /^([A-Za-z_][\w]*)/.exec(line)?.[1] ?? '';
}

function keep(node, inCell) {
  if ('line' in node) return !(inCell && droppedAttributes.has(attributeName(node.line)));
  if (droppedGroups.has(node.name)) return false;
  if (node.name === 'lu_table_template' && node.args.includes('driver_waveform')) return false;
  return true;
}

function print(node, depth, out, inCell) {
  const pad = '  '.repeat(depth);
  for (const child of node.children) {
    if (!keep(child, inCell)) continue;
    if ('line' in child) {
      out.push(
        child.line
          .split('\n')
          .map((part, i) => (i === 0 ? pad : pad + '  ') + part)
          .join('\n'),
      );
      continue;
    }
    out.push(pad + child.head);
    print(child, depth + 1, out, inCell || child.name === 'cell');
    out.push(pad + '}');
  }
}

export function extract(text) {
  const root = parse(text);
  const library = root.children.find((node) => node.name === 'library');
  if (!library) throw new Error('no library group');
  const cellName = (node) => node.args.replace(/"/g, '');
  library.children = library.children.filter(
    (node) => node.name !== 'cell' || keptCells.includes(cellName(node)),
  );
  const found = library.children.filter((node) => node.name === 'cell').map(cellName);
  const missing = keptCells.filter((name) => !found.includes(name));
  if (missing.length > 0) throw new Error(`cells not in the library: ${missing.join(', ')}`);
  const out = [
    '/*',
    ' * A subset of the SkyWater SKY130 high-density standard cell library, typical corner',
    ' * (tt, 25 C, 1.80 V): sky130_fd_sc_hd__tt_025C_1v80.lib as published by SkyWater Technology',
    ' * and Google in https://github.com/google/skywater-pdk-libs-sky130_fd_sc_hd',
    ' * (timing/sky130_fd_sc_hd__tt_025C_1v80.lib), Licensed under the Apache License, Version 2.0',
    ' * (http://www.apache.org/licenses/LICENSE-2.0). Copyright 2020 The SkyWater PDK Authors.',
    ` * Kept as published: ${keptCells.length} cells (areas in square micrometres, pins, functions, timing`,
    ' * tables in ns and pF). Removed: the other cells, power tables, leakage, power/ground pins.',
    ' * Written by server/src/eda/liberty/extract-liberty.mjs.',
    ' */',
    library.head,
  ];
  print(library, 1, out, false);
  out.push('}');
  return out.join('\n') + '\n';
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const source = process.argv[2];
  if (!source) {
    console.error('usage: extract-liberty.mjs <sky130_fd_sc_hd__tt_025C_1v80.lib>');
    process.exit(2);
  }
  process.stdout.write(extract(readFileSync(source, 'utf8')));
}
