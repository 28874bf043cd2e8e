// Ported from Pachyderm's src/server/pfs/server/testing/server_test.go: the PutFile tests.
import { describe, expect, it } from 'vitest';
import { usePeerServer, unique } from '../support/peer-server.ts';

const env = usePeerServer();
const project = 'default';

describe('server_test.go: PutFile', () => {
  it('TestPutFile: PutFile overwrites, DeleteFile then PutFile writes anew', async () => {
    const c = env.client();
    const repo = unique('test');
    await c.createRepo(project, repo);
    const master = c.commit(project, repo, 'master');
    await c.putFile(master, 'file', 'foo');
    expect(await c.getFile(master, 'file')).toBe('foo');
    await c.putFile(master, 'file', 'bar');
    expect(await c.getFile(master, 'file')).toBe('bar');
    await c.deleteFile(master, 'file');
    await c.putFile(master, 'file', 'buzz');
    expect(await c.getFile(master, 'file')).toBe('buzz');
  });
});
