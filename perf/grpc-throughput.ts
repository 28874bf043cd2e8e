// ModifyFile and GetFile throughput of one 256 MiB file over gRPC (the listener pachctl and the
// SDKs use, IVORY_GRPC_PORT) next to the HTTP gateway (base64 NDJSON) and a plain disk copy of
// the same bytes (copyFile + fsync, the durability the server gives), measured in the same run,
// several rounds (the machine is shared: the spread is printed). Target: gRPC ≥ 0.6× disk.
// Run: npx tsx perf/grpc-throughput.ts   (PERF_FILE_MIB, PERF_ROUNDS to change the size/rounds;
// PERF_SKIP_HTTP=1 measures the disk copy and gRPC only)
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, open, readdir, readFile, writeFile, type FileHandle } from 'node:fs/promises';
import { connect, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { createServer } from 'node:net';
import path from 'node:path';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  Client,
  credentials,
  Metadata,
  type ClientWritableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import { pfs_v2 } from '@ivory/api/proto';
import { grpcClient } from '../server/test/helpers/grpc-client.ts';
import { startServerProcess } from '../server/test/helpers/server-process.ts';
import { MiB, printFigure, throughput, timed, withScratchDir } from './support/figures.ts';

const FILE_BYTES = Number(process.env.PERF_FILE_MIB ?? 256) * MiB;
const ROUNDS = Number(process.env.PERF_ROUNDS ?? 3);
const HTTP = process.env.PERF_SKIP_HTTP !== '1';
/** pachctl sends a file as addFile messages under the 20 MiB message cap; 4 MiB each here. */
const MESSAGE_BYTES = 4 * MiB;
const project = { name: 'default' };
const repo = { name: 'perf', type: 'user', project };
const master = { repo, name: 'master' };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function diskCopy(source: string, target: string): Promise<void> {
  await copyFile(source, target);
  const handle = await open(target, 'r');
  await handle.sync();
  await handle.close();
}

/** ModifyFile over HTTP: a streamed NDJSON body, setCommit then one addFile per chunk. */
async function modifyFileHttp(url: string, source: string, file: string): Promise<void> {
  const encoder = new TextEncoder();
  async function* messages() {
    yield encoder.encode(JSON.stringify({ setCommit: { branch: master } }) + '\n');
    for await (const chunk of createReadStream(source, { highWaterMark: MESSAGE_BYTES })) {
      const raw = (chunk as Buffer).toString('base64');
      yield encoder.encode(JSON.stringify({ addFile: { path: file, raw } }) + '\n');
    }
  }
  const response = await fetch(`${url}/api/pfs_v2.API/ModifyFile`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: messages() as unknown as BodyInit,
    duplex: 'half',
  } as RequestInit);
  if (!response.ok) throw new Error(`ModifyFile failed: ${await response.text()}`);
}

/** The tag and length prefix of a length-delimited protobuf field. */
function lengthDelimited(field: number, length: number): number[] {
  const header = [(field << 3) | 2];
  for (; length > 0x7f; length >>>= 7) header.push((length & 0x7f) | 0x80);
  header.push(length);
  return header;
}

/** The bytes of ModifyFileRequest{addFile{path, raw: BytesValue{value}}} before `value`'s. */
function addFileHeader(file: string, length: number): Buffer {
  const path = Buffer.from(file);
  const value = lengthDelimited(1, length);
  const raw = lengthDelimited(3, value.length + length);
  const pathField = lengthDelimited(1, path.length);
  const addFileLength = pathField.length + path.length + raw.length + value.length + length;
  return Buffer.concat([
    Buffer.from([...lengthDelimited(2, addFileLength), ...pathField]),
    path,
    Buffer.from([...raw, ...value]),
  ]);
}

/**
 * ModifyFileRequest{addFile{path, raw: BytesValue{value}}} in binary, for `length` bytes that
 * `fill` reads straight into the message (as pachctl's grpc-go marshals each chunk once into a
 * fresh buffer; protobuf-es's toBinary copies 4 MiB several times: that would measure this client,
 * not the server). Checked against fromBinary before the runs.
 */
async function addFileMessage(
  file: string,
  length: number,
  fill: (payload: Buffer) => Promise<void>,
): Promise<Buffer> {
  const header = addFileHeader(file, length);
  const message = Buffer.allocUnsafeSlow(header.length + length);
  header.copy(message);
  await fill(message.subarray(header.length));
  return message;
}

async function checkAddFileMessage(): Promise<void> {
  const chunk = randomBytes(300);
  const message = await addFileMessage('/a/b.bin', chunk.length, async (payload) => {
    chunk.copy(payload);
  });
  const { body } = fromBinary(pfs_v2.ModifyFileRequestSchema, message);
  const ok =
    body.case === 'addFile' &&
    body.value.path === '/a/b.bin' &&
    body.value.source.case === 'raw' &&
    Buffer.from(body.value.source.value.value).equals(chunk);
  if (!ok) throw new Error('addFileMessage does not encode a ModifyFileRequest');
}

/** Reads `payload.length` bytes of a file at `position` into `payload`. */
async function readAt(handle: FileHandle, payload: Buffer, position: number): Promise<void> {
  for (let filled = 0; filled < payload.length;) {
    const { bytesRead } = await handle.read(payload, filled, payload.length - filled, position);
    if (bytesRead === 0) throw new Error('the source file is shorter than expected');
    filled += bytesRead;
    position += bytesRead;
  }
}

/** ModifyFile over gRPC: a client stream of binary messages, as pachctl sends it. */
async function modifyFileGrpc(client: Client, source: string, file: string): Promise<void> {
  const setCommit = create(pfs_v2.ModifyFileRequestSchema, {
    body: { case: 'setCommit', value: { branch: master } },
  });
  let call: ClientWritableStream<Buffer> | undefined;
  const answer = new Promise<void>((resolve, reject) => {
    call = client.makeClientStreamRequest(
      `/${pfs_v2.API.typeName}/${pfs_v2.API.method.modifyFile.name}`,
      (bytes: Buffer) => bytes,
      (bytes: Buffer) => bytes,
      new Metadata(),
      (error: ServiceError | null) => (error ? reject(error) : resolve()),
    );
  });
  // A fresh buffer per message: grpc-js's write callback can come before it has framed the bytes.
  const send = async (message: Buffer) => {
    if (!call!.write(message)) await new Promise((resolve) => call!.once('drain', resolve));
  };
  const handle = await open(source, 'r');
  try {
    await send(Buffer.from(toBinary(pfs_v2.ModifyFileRequestSchema, setCommit)));
    const { size } = await handle.stat();
    for (let position = 0; position < size; position += MESSAGE_BYTES) {
      const length = Math.min(MESSAGE_BYTES, size - position);
      const fill = (payload: Buffer) => readAt(handle, payload, position);
      await send(await addFileMessage(file, length, fill));
    }
  } finally {
    call!.end();
    await handle.close();
  }
  await answer;
}

/**
 * ModifyFile as gRPC's wire format straight over node:http2, as a lean client sends it (grpc-go
 * marshals each message once into a pooled buffer): every message is read from the file into one
 * of a few reused buffers behind its 5-byte gRPC prefix and protobuf header, and written as is.
 * grpc-js's client instead copies each message into a fresh frame buffer, and this process's
 * garbage collector then marks its heap every 64 MiB of such buffers: that CPU is the client's
 * (two processes share this machine's cores), not the server's. The server is the same.
 */
async function modifyFileHttp2(session: ClientHttp2Session, source: string, file: string) {
  const pathName = `/${pfs_v2.API.typeName}/${pfs_v2.API.method.modifyFile.name}`;
  const stream = session.request({
    ':method': 'POST',
    ':path': pathName,
    'content-type': 'application/grpc',
    te: 'trailers',
  });
  const status = new Promise<void>((resolve, reject) => {
    let grpcStatus: string | undefined;
    let grpcMessage = '';
    const take = (headers: IncomingHttpHeaders) => {
      if (headers['grpc-status'] !== undefined) grpcStatus = String(headers['grpc-status']);
      if (headers['grpc-message'] !== undefined) grpcMessage = String(headers['grpc-message']);
    };
    stream.on('response', take);
    stream.on('trailers', take);
    stream.on('data', () => undefined); // the answer (an empty message)
    stream.on('error', reject);
    stream.on('close', () =>
      grpcStatus === '0'
        ? resolve()
        : reject(new Error(`ModifyFile over HTTP/2 failed: ${grpcStatus} ${grpcMessage}`)),
    );
  });
  const frame = (message: Uint8Array) => {
    const framed = Buffer.allocUnsafe(5 + message.length);
    framed[0] = 0;
    framed.writeUInt32BE(message.length, 1);
    framed.set(message, 5);
    return framed;
  };
  const free = Array.from({ length: 3 }, () => Buffer.allocUnsafeSlow(5 + 64 + MESSAGE_BYTES));
  const waiting: Array<() => void> = [];
  const take = async () => {
    while (free.length === 0) await new Promise<void>((resolve) => waiting.push(resolve));
    return free.pop()!;
  };
  const handle = await open(source, 'r');
  try {
    const setCommit = create(pfs_v2.ModifyFileRequestSchema, {
      body: { case: 'setCommit', value: { branch: master } },
    });
    stream.write(frame(toBinary(pfs_v2.ModifyFileRequestSchema, setCommit)));
    const { size } = await handle.stat();
    for (let position = 0; position < size; position += MESSAGE_BYTES) {
      const length = Math.min(MESSAGE_BYTES, size - position);
      const header = addFileHeader(file, length);
      const buffer = await take();
      buffer[0] = 0;
      buffer.writeUInt32BE(header.length + length, 1);
      header.copy(buffer, 5);
      const start = 5 + header.length;
      await readAt(handle, buffer.subarray(start, start + length), position);
      // The buffer is reused once HTTP/2 has handed its bytes to the socket.
      stream.write(buffer.subarray(0, start + length), () => {
        free.push(buffer);
        waiting.shift()?.();
      });
    }
  } finally {
    stream.end();
    await handle.close();
  }
  await status;
}

/** GetFile over HTTP: NDJSON lines of base64 chunks, split and decoded as they arrive. */
async function getFileHttp(url: string, file: string): Promise<number> {
  const response = await fetch(`${url}/api/pfs_v2.API/GetFile`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ file: { commit: { branch: master }, path: file } }),
  });
  if (!response.ok) throw new Error(`GetFile failed: ${await response.text()}`);
  const decoder = new TextDecoder();
  let bytes = 0;
  let pending = '';
  const take = (line: string) => {
    if (line)
      bytes += Buffer.from((JSON.parse(line) as { result: string }).result, 'base64').length;
  };
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop()!;
    lines.forEach(take);
  }
  take(pending);
  return bytes;
}

async function getFileGrpc(client: ReturnType<typeof grpcClient>, file: string): Promise<number> {
  let bytes = 0;
  for await (const chunk of client.eachMessage(pfs_v2.API.method.getFile, {
    file: { commit: { branch: master }, path: file },
  }))
    bytes += chunk.value.length;
  return bytes;
}

/** CPU seconds (user, system) of a /proc stat line. */
function statCpuSeconds(stat: string): { user: number; system: number } {
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

interface CpuSeconds {
  /** All threads, user + system. */
  all: number;
  /** The main thread (the event loop), user + system. */
  loop: number;
  /** The other threads (blob hasher, libuv's pool, V8's GC helpers): user and system (kernel). */
  restUser: number;
  restSystem: number;
}

/** CPU seconds a process has used, its main thread's apart from its other threads'. */
async function cpuSecondsOf(pid: number): Promise<CpuSeconds> {
  const total = { all: 0, loop: 0, restUser: 0, restSystem: 0 };
  for (const task of await readdir(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = await readFile(`/proc/${pid}/task/${task}/stat`, 'utf8');
    } catch {
      continue; // a thread that ended meanwhile
    }
    const { user, system } = statCpuSeconds(stat);
    total.all += user + system;
    if (Number(task) === pid) total.loop += user + system;
    else {
      total.restUser += user;
      total.restSystem += system;
    }
  }
  return total;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

await withScratchDir(async (dir) => {
  const source = path.join(dir, 'source.bin');
  await writeFile(source, randomBytes(FILE_BYTES));
  const grpcPort = await freePort();
  const server = await startServerProcess({ IVORY_GRPC_PORT: String(grpcPort) });
  // pachctl's grpc-go grows its HTTP/2 windows to 16 MiB (BDP probing); grpc-js needs them set.
  const channelOptions = {
    'grpc-node.flow_control_window': 16 * MiB,
    'grpc.max_send_message_length': 64 * MiB,
    'grpc.max_receive_message_length': 64 * MiB,
  };
  const client = grpcClient(`127.0.0.1:${grpcPort}`, '', channelOptions);
  const rawClient = new Client(
    `127.0.0.1:${grpcPort}`,
    credentials.createInsecure(),
    channelOptions,
  );
  // The lean client's connection, with the same 16 MiB windows.
  const session = connect(`http://127.0.0.1:${grpcPort}`, {
    settings: { initialWindowSize: 16 * MiB },
  });
  session.once('connect', () => session.setLocalWindowSize(16 * MiB));
  await checkAddFileMessage();
  try {
    await client.unary(pfs_v2.API.method.createProject, { project });
    await client.unary(pfs_v2.API.method.createRepo, { repo });
    const seconds: Record<string, number[]> = {};
    // CPU time is what load on the shared machine distorts least: it tells where the time goes.
    const serverCpu: Record<string, number[]> = {};
    const serverLoopCpu: Record<string, number[]> = {};
    const serverRestCpu: Record<string, Array<{ user: number; system: number }>> = {};
    const clientCpu: Record<string, number[]> = {};
    const measure = async (name: string, work: () => Promise<unknown>) => {
      const server0 = await cpuSecondsOf(server.pid);
      const client0 = process.cpuUsage();
      (seconds[name] ??= []).push(await timed(work));
      const client = process.cpuUsage(client0);
      const server1 = await cpuSecondsOf(server.pid);
      (serverCpu[name] ??= []).push(server1.all - server0.all);
      (serverLoopCpu[name] ??= []).push(server1.loop - server0.loop);
      (serverRestCpu[name] ??= []).push({
        user: server1.restUser - server0.restUser,
        system: server1.restSystem - server0.restSystem,
      });
      (clientCpu[name] ??= []).push((client.user + client.system) / 1e6);
    };
    const expectBytes = (name: string) => (bytes: number) => {
      if (bytes !== FILE_BYTES) throw new Error(`${name} returned ${bytes} bytes`);
    };
    for (let round = 0; round < ROUNDS; round++) {
      await measure('disk', () => diskCopy(source, path.join(dir, `copy-${round}.bin`)));
      await measure('grpc write', () => modifyFileGrpc(rawClient, source, `/grpc-${round}.bin`));
      await measure('grpc write lean', () =>
        modifyFileHttp2(session, source, `/grpc-lean-${round}.bin`),
      );
      if (HTTP)
        await measure('http write', () => modifyFileHttp(server.url, source, `/http-${round}.bin`));
      await measure('grpc read', () =>
        getFileGrpc(client, `/grpc-${round}.bin`).then(expectBytes('gRPC GetFile')),
      );
      if (HTTP)
        await measure('http read', () =>
          getFileHttp(server.url, `/http-${round}.bin`).then(expectBytes('HTTP GetFile')),
        );
    }

    // The lean client's files hold what was sent.
    expectBytes("GetFile of the lean client's file")(await getFileGrpc(client, '/grpc-lean-0.bin'));
    const disk = median(seconds.disk!);
    console.log(`\ngRPC throughput, one ${FILE_BYTES / MiB} MiB file, median of ${ROUNDS} rounds`);
    const row = (label: string, name: string) => {
      const values = seconds[name]!;
      const rates = values.map((s) => FILE_BYTES / MiB / s);
      const spread = `rounds: ${rates.map((rate) => rate.toFixed(0)).join(', ')} MiB/s`;
      const ratio = name === 'disk' ? '' : `  ${(disk / median(values)).toFixed(2)}× disk`;
      printFigure(label, `${throughput(FILE_BYTES, median(values))} (${spread})${ratio}`);
      const cpu =
        `CPU s: server ${median(serverCpu[name]!).toFixed(2)} ` +
        `(event loop ${median(serverLoopCpu[name]!).toFixed(2)}), ` +
        `this process ${median(clientCpu[name]!).toFixed(2)}`;
      printFigure('', cpu);
      // Per round: where the server's time off the event loop went (kernel = system time:
      // page-cache writes, fsync; user = sha256 in the hasher thread, V8's GC helpers).
      const rest = serverRestCpu[name]!.map(
        ({ user, system }) => `${user.toFixed(2)}/${system.toFixed(2)}`,
      );
      if (name !== 'disk')
        printFigure('', `server off the loop, user/kernel s: ${rest.join(', ')}`);
    };
    row('plain disk copy (copyFile + fsync), baseline', 'disk');
    row('write: ModifyFile over gRPC (binary client stream)', 'grpc write');
    row('write: the same, lean client (node:http2, reused buffers)', 'grpc write lean');
    if (HTTP) row('write: ModifyFile over HTTP (base64 NDJSON)', 'http write');
    row('read: GetFile over gRPC (BytesValue stream)', 'grpc read');
    if (HTTP) row('read: GetFile over HTTP (base64 NDJSON)', 'http read');
  } finally {
    client.close();
    rawClient.close();
    session.close();
    await server.kill('SIGTERM');
  }
});
