import { describe, expect, it } from 'vitest';
import { connectionInputs } from '../cluster/commands.ts';
import { setupCommands } from './SetupScreen.tsx';

const location = { protocol: 'http:', hostname: 'ivory.local', port: '4000' };

describe('setupCommands', () => {
  it("point pachctl at the gRPC listener's port, not the console's", () => {
    const commands = setupCommands(
      connectionInputs('c', { REACT_APP_GRPC_PORT: '1650' }, location),
    );
    expect(commands[0]).toContain('"pachd_address": "grpc://ivory.local:1650"');
    expect(commands[0]).toContain('pachctl config set active-context eda');
    expect(commands.join('\n')).not.toContain('4000');
    expect(commands).not.toContain('pachctl auth login');
  });

  it('log in only with sign-in on; nothing to run with the listener off', () => {
    const signedIn = connectionInputs(
      'c',
      { REACT_APP_GRPC_PORT: '1650', REACT_APP_RUNTIME_ISSUER_URI: 'http://idp' },
      location,
    );
    expect(setupCommands(signedIn)).toContain('pachctl auth login');
    expect(setupCommands(connectionInputs('c', {}, location))).toEqual([]);
  });
});
