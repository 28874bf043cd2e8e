// Static timing analysis of the mapped netlist with OpenSTA (Debian's `opensta`, program `sta`):
// the worst path against one clock (the design's clock port, or a virtual clock for purely
// combinational logic), inputs and outputs at the clock edge.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The cell library the flow maps to and times against (see liberty/extract-liberty.mjs). */
export const libertyPath = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'liberty',
  'sky130_fd_sc_hd_subset.lib',
);
export const libertyName = 'SkyWater SKY130 sky130_fd_sc_hd, tt_025C_1v80';

/** Input ports a flip-flop's clock pin connects to in a Yosys netlist (`.CLK(clk)`). */
export function clockPorts(netlist, top) {
  const module = new RegExp(`module\\s+${top}\\s*\\(([\\s\\S]*?)\\);([\\s\\S]*?)endmodule`).exec(
    netlist,
  );
  if (!module) return [];
  const inputs = new Set(
    [...module[2].matchAll(/^\s*input\s+(?:\[[^\]]*\]\s*)?([\w$]+)\s*;/gm)].map((m) => m[1]),
  );
  const clocks = new Set();
  for (const match of module[2].matchAll(/\.(?:CLK|GATE)\(([\w$]+)\)/g))
    if (inputs.has(match[1])) clocks.add(match[1]);
  return [...clocks].sort();
}

/** The OpenSTA script for a netlist in the working folder. */
export function staScript({ top, clocks, periodNs }) {
  const lines = ['read_liberty cells.lib', 'read_verilog netlist.v', `link_design ${top}`];
  if (clocks.length > 0) {
    for (const clock of clocks)
      lines.push(`create_clock -name ${clock} -period ${periodNs} [get_ports ${clock}]`);
    const clock = clocks[0];
    lines.push(
      `set_input_delay 0 -clock ${clock} [delete_from_list [all_inputs] [get_ports {${clocks.join(' ')}}]]`,
      `set_output_delay 0 -clock ${clock} [all_outputs]`,
    );
  } else {
    lines.push(
      `create_clock -name virtual -period ${periodNs}`,
      'set_input_delay 0 -clock virtual [all_inputs]',
      'set_output_delay 0 -clock virtual [all_outputs]',
    );
  }
  lines.push(
    'report_checks -path_delay max -digits 3',
    'report_wns -digits 3',
    'report_tns -digits 3',
  );
  return lines.join('\n') + '\n';
}

/**
 * The worst path of `report_checks`: its data arrival time (the path delay), slack and
 * endpoints; null when the report holds no path (nothing constrained, e.g. no logic at all).
 */
export function parseTimingReport(report) {
  const arrival = /^\s*(-?[\d.]+)\s+data arrival time/m.exec(report);
  if (!arrival) return null;
  const slack = /^\s*(-?[\d.]+)\s+slack \((MET|VIOLATED)\)/m.exec(report);
  return {
    delayNs: Number(arrival[1]),
    slackNs: slack ? Number(slack[1]) : null,
    met: slack ? slack[2] === 'MET' : null,
    startpoint: /^Startpoint: (.*)$/m.exec(report)?.[1] ?? '',
    endpoint: /^Endpoint: (.*)$/m.exec(report)?.[1] ?? '',
  };
}
