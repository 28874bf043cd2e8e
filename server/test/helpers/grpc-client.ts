/**
 * A gRPC client built from the project's protocol files (the protoc-gen-es descriptors in
 * @ivory/api/proto): `pfs_v2.API.method.createRepo` etc. name the method, messages are the
 * generated types, the wire is grpc-js over HTTP/2 cleartext — as pachctl's.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import type { DescMessage, DescMethod, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import { Client, credentials, Metadata, type ServiceError } from '@grpc/grpc-js';

type TypedMethod<I extends DescMessage, O extends DescMessage> = DescMethod & {
  input: I;
  output: O;
};

export interface GrpcTestClient {
  unary<I extends DescMessage, O extends DescMessage>(
    method: TypedMethod<I, O>,
    request: MessageInitShape<I>,
  ): Promise<MessageShape<O>>;
  serverStream<I extends DescMessage, O extends DescMessage>(
    method: TypedMethod<I, O>,
    request: MessageInitShape<I>,
  ): Promise<MessageShape<O>[]>;
  clientStream<I extends DescMessage, O extends DescMessage>(
    method: TypedMethod<I, O>,
    requests: Iterable<MessageInitShape<I>>,
  ): Promise<MessageShape<O>>;
  close(): void;
}

/** `address` as host:port; `token` goes in the `authn-token` metadata, as pachctl sends it. */
export function grpcClient(address: string, token = ''): GrpcTestClient {
  const client = new Client(address, credentials.createInsecure(), {
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
    'grpc.max_send_message_length': 64 * 1024 * 1024,
  });
  const metadata = () => {
    const md = new Metadata();
    if (token) md.set('authn-token', token);
    return md;
  };
  const path = (method: DescMethod) => `/${method.parent.typeName}/${method.name}`;
  const codec = <I extends DescMessage, O extends DescMessage>(method: TypedMethod<I, O>) => ({
    serialize: (message: MessageShape<I>) => Buffer.from(toBinary(method.input, message)),
    deserialize: (bytes: Buffer) => fromBinary(method.output, bytes) as MessageShape<O>,
  });
  return {
    unary(method, request) {
      const { serialize, deserialize } = codec(method);
      return new Promise((resolve, reject) =>
        client.makeUnaryRequest(
          path(method),
          serialize,
          deserialize,
          create(method.input, request),
          metadata(),
          (error: ServiceError | null, answer) => (error ? reject(error) : resolve(answer!)),
        ),
      );
    },
    async serverStream(method, request) {
      const { serialize, deserialize } = codec(method);
      const call = client.makeServerStreamRequest(
        path(method),
        serialize,
        deserialize,
        create(method.input, request),
        metadata(),
      );
      const answers = [];
      for await (const answer of call) answers.push(answer);
      return answers;
    },
    clientStream(method, requests) {
      const { serialize, deserialize } = codec(method);
      return new Promise((resolve, reject) => {
        const call = client.makeClientStreamRequest(
          path(method),
          serialize,
          deserialize,
          metadata(),
          (error: ServiceError | null, answer) => (error ? reject(error) : resolve(answer!)),
        );
        for (const request of requests) call.write(create(method.input, request));
        call.end();
      });
    },
    close: () => client.close(),
  };
}

/** The gRPC status of a failed call (fails the test if the call succeeded). */
export async function grpcFailure(
  call: Promise<unknown>,
): Promise<{ code: number; details: string }> {
  try {
    await call;
  } catch (error) {
    const { code, details } = error as ServiceError;
    return { code, details };
  }
  throw new Error('the call succeeded');
}
