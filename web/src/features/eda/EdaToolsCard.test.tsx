import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeApiClient } from '../../test/fake-api-client.ts';
import { renderApp } from '../../test/render.tsx';
import type { EdaTool } from '@ivory/api';

const tool = (overrides: Partial<EdaTool>): EdaTool => ({
  name: 'Yosys',
  program: '',
  stage: 'elaborate, synth',
  purpose: 'synthesis',
  available: true,
  version: '@yowasp/yosys 0.55.944',
  install: 'npm install',
  ...overrides,
});

describe('the setup screen’s EDA tools', () => {
  it('lists each tool with its version, or how to install it', { timeout: 20_000 }, async () => {
    const client = createFakeApiClient({
      'omni_v1.API/InspectEdaTools': () => ({
        tools: [
          tool({}),
          tool({
            name: 'Icarus Verilog',
            stage: 'simulate',
            available: false,
            version: '',
            install: 'apt-get install iverilog',
          }),
        ],
      }),
    });
    renderApp('/setup', client);
    const table = await screen.findByRole('table', { name: 'EDA tools' }, { timeout: 15_000 });
    const yosys = (await within(table).findByText('Yosys')).closest('tr') as HTMLElement;
    expect(within(yosys).getByText('installed')).toBeInTheDocument();
    expect(yosys).toHaveTextContent('@yowasp/yosys 0.55.944');
    const icarus = within(table).getByText('Icarus Verilog').closest('tr') as HTMLElement;
    expect(within(icarus).getByText('not installed')).toBeInTheDocument();
    expect(icarus).toHaveTextContent('the stage is not run; install with apt-get install iverilog');
  });
});
