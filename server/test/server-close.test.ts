import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestServer } from './helpers/in-process-server.ts';

// Closing the server (SIGTERM, a test's afterAll) must not wait on connections that never sent
// a request (a browser's preconnect, an HTTP client pool's spare socket): Node's
// closeIdleConnections leaves those, and close() used to wait for their headers timeout.

function openSocket(url: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

describe('server close', () => {
  it('ends connections that never sent a request, and idle keep-alive ones', async () => {
    const server = await startTestServer();
    const unused = await openSocket(server.url);
    // A connection that carried one request and stays open for the next (keep-alive).
    const used = await openSocket(server.url);
    const answered = new Promise<string>((resolve) => {
      let text = '';
      used.socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\r\n\r\n')) resolve(text);
      });
    });
    used.socket.write('GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n');
    expect(await answered).toMatch(/^HTTP\/1\.1 200/);
    let unusedClosedFirst = false;
    void unused.closed.then(() => (unusedClosedFirst = true));
    await server.close();
    expect(unusedClosedFirst).toBe(true);
    await Promise.all([unused.closed, used.closed]);
    expect(unused.socket.destroyed && used.socket.destroyed).toBe(true);
  });
});
