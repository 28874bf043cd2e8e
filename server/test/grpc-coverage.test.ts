import { protoMethod } from '@ivory/api/proto';
import { Client, credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

// Every method the HTTP gateway serves (the platform's registry) is in the protocol files and
// answered over gRPC by the platform's handler, not by the transport's "not implemented".

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer({ grpc: { port: 0, optional: false } });
  client = new Client(`127.0.0.1:${server.server.grpc!.port}`, credentials.createInsecure());
}, 30_000);

afterAll(async () => {
  client?.close();
  await server?.close();
});

/** Calls a method with an empty request; the gRPC status (0 = answered), or -1 on a deadline. */
function callEmpty(fullName: string): Promise<{ code: number; details: string }> {
  const desc = protoMethod(fullName)!;
  const path = `/${fullName}`;
  const serialize = (value: Buffer) => value;
  const deserialize = (value: Buffer) => value;
  const deadline = Date.now() + 5000;
  const settle = (error: ServiceError | null) =>
    error ? { code: error.code, details: error.details } : { code: 0, details: '' };
  return new Promise((resolve) => {
    const empty = Buffer.alloc(0);
    if (desc.methodKind === 'unary') {
      client.makeUnaryRequest(
        path,
        serialize,
        deserialize,
        empty,
        new Metadata(),
        { deadline },
        (error) => resolve(settle(error)),
      );
    } else if (desc.methodKind === 'client_streaming') {
      const call = client.makeClientStreamRequest(
        path,
        serialize,
        deserialize,
        new Metadata(),
        { deadline },
        (error) => resolve(settle(error)),
      );
      call.end();
    } else {
      const call = client.makeServerStreamRequest(
        path,
        serialize,
        deserialize,
        empty,
        new Metadata(),
        {
          deadline,
        },
      );
      call.on('data', () => {});
      call.on('error', (error: ServiceError) => resolve(settle(error)));
      call.on('end', () => resolve({ code: 0, details: '' }));
    }
  });
}

describe('gRPC coverage', () => {
  it("tells the web app the listener's port (runtime settings, for the Connect dialog)", async () => {
    const script = await (await fetch(`${server.url}/runtime-config.js`)).text();
    expect(script).toContain(`"REACT_APP_GRPC_PORT":"${server.server.grpc!.port}"`);
  });

  it('serves every method registered on the HTTP gateway', () => {
    const registered = [...server.server.platform.methods.keys()].sort();
    expect(registered.length).toBeGreaterThan(100);
    expect(registered.filter((name) => !protoMethod(name))).toEqual([]);
    expect([...server.server.grpc!.served].sort()).toEqual(registered);
  });

  it("answers each of them with the platform's handler", async () => {
    const registered = [...server.server.platform.methods.keys()];
    const answers = await Promise.all(
      registered.map(async (name) => ({ name, ...(await callEmpty(name)) })),
    );
    const transportUnimplemented = answers.filter(
      (answer) => answer.code === 12 && /does not implement the method/i.test(answer.details),
    );
    expect(transportUnimplemented).toEqual([]);
    // Unexpected failures (13) would mean a handler's answer does not fit its proto message.
    expect(answers.filter((answer) => answer.code === 13)).toEqual([]);
    // Most answer an empty request outright (or refuse it with the platform's own code).
    expect(answers.filter((answer) => answer.code === 0).length).toBeGreaterThan(30);
  }, 60_000);
});
