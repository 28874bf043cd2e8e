/**
 * A gRPC client built from the project's protocol files (the protoc-gen-es descriptors in
 * @ivory/api/proto): `pfs_v2.API.method.createRepo` etc. name the method, messages are the
 * generated types, the wire is grpc-js over HTTP/2 cleartext — as pachctl's.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import type { DescMessage, DescMethod, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import {
  Client,
  credentials,
  type ChannelOptions,
  Metadata,
  type ClientWritableStream,
  type ServiceError,
} from '@grpc/grpc-js';

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
  /** A server stream's messages as they arrive, none kept. */
  eachMessage<I extends DescMessage, O extends DescMessage>(
    method: TypedMethod<I, O>,
    request: MessageInitShape<I>,
  ): AsyncIterable<MessageShape<O>>;
  /** Writes the requests as the server takes them (waits for HTTP/2 flow control). */
  clientStream<I extends DescMessage, O extends DescMessage>(
    method: TypedMethod<I, O>,
    requests: Iterable<MessageInitShape<I>> | AsyncIterable<MessageInitShape<I>>,
  ): Promise<MessageShape<O>>;
  close(): void;
}

/**
 * `address` as host:port; `token` goes in the `authn-token` metadata, as pachctl sends it;
 * `options` add grpc-js channel options (e.g. 'grpc-node.flow_control_window').
 */
export function grpcClient(
  address: string,
  token = '',
  options: ChannelOptions = {},
): GrpcTestClient {
  const client = new Client(address, credentials.createInsecure(), {
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
    'grpc.max_send_message_length': 64 * 1024 * 1024,
    ...options,
  });
  const metadata = () => {
    const md = new Metadata();
    if (token) md.set('authn-token', token);
    return md;
  };
  const path = (method: DescMethod) => `/${method.parent.typeName}/${method.name}`;
  const codec = <I extends DescMessage, O extends DescMessage>(method: TypedMethod<I, O>) => ({
    serialize: (message: MessageShape<I>) => {
      const bytes = toBinary(method.input, message);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
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
    async serverStream<I extends DescMessage, O extends DescMessage>(
      method: TypedMethod<I, O>,
      request: MessageInitShape<I>,
    ) {
      const answers: MessageShape<O>[] = [];
      for await (const answer of this.eachMessage(method, request)) answers.push(answer);
      return answers;
    },
    async *eachMessage(method, request) {
      const { serialize, deserialize } = codec(method);
      const call = client.makeServerStreamRequest(
        path(method),
        serialize,
        deserialize,
        create(method.input, request),
        metadata(),
      );
      for await (const answer of call) yield answer as MessageShape<typeof method.output>;
    },
    async clientStream(method, requests) {
      const { serialize, deserialize } = codec(method);
      let call: ClientWritableStream<MessageShape<typeof method.input>> | undefined;
      const answer = new Promise<MessageShape<typeof method.output>>((resolve, reject) => {
        call = client.makeClientStreamRequest(
          path(method),
          serialize,
          deserialize,
          metadata(),
          (error: ServiceError | null, message) => (error ? reject(error) : resolve(message!)),
        );
      });
      try {
        for await (const request of requests)
          if (!call!.write(create(method.input, request)))
            await new Promise((resolve) => call!.once('drain', resolve));
      } finally {
        call!.end();
      }
      return answer;
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
