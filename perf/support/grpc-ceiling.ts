/**
 * The transport's ceiling on this machine for an upload of one file (256 MiB) in 4 MiB writes: a
 * receiver process with no application in it, next to which gRPC ModifyFile is judged.
 *   store:     no transport: the bytes handed to the blob hasher thread (sha256 + writes) in this
 *              process, fsync at the end (each 4 MiB copied into a fresh buffer on the way, as
 *              they are views of one source buffer: fresh memory is costly on this VM)
 *   h2:        bare node:http2 server, each DATA chunk discarded; node:http2 sender
 *   grpc:      @grpc/grpc-js server, client stream of 4 MiB messages with pass-through
 *              (de)serializers, each message discarded; grpc-js sender
 *   grpc/h2:   the same server; the sender writes gRPC's wire format over node:http2 itself
 *   …+store:   the receiver also stores the bytes as `store` does (chunks gathered to 4 MiB)
 * For each: wall MiB/s per round, CPU seconds of the receiver (all threads, and by thread: 'loop'
 * is its event loop) and of the sender (this process).
 * Run: npx tsx perf/support/grpc-ceiling.ts [mode…]   (PERF_FILE_MIB, PERF_ROUNDS, PERF_FRAME_KIB)
 */
import { once } from 'node:events';
import { mkdtemp, open, readdir, readFile, rm, type FileHandle } from 'node:fs/promises';
import http2 from 'node:http2';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  Client,
  Server,
  ServerCredentials,
  credentials,
  Metadata,
  type ClientWritableStream,
  type ServerReadableStream,
  type ServiceError,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { BlobHasher } from '../../server/src/platform/storage/blob-hasher.ts';
import { startChildReceiver } from './child-receiver.ts';

const MiB = 1024 * 1024;
const FILE_BYTES = Number(process.env.PERF_FILE_MIB ?? 256) * MiB;
const ROUNDS = Number(process.env.PERF_ROUNDS ?? 3);
const WRITE_BYTES = 4 * MiB;
const WINDOW = 16 * MiB;
/** SETTINGS_MAX_FRAME_SIZE both ends advertise (16 KiB is HTTP/2's default and least). */
const FRAME_BYTES = Number(process.env.PERF_FRAME_KIB ?? 16) * 1024;
const MODES = [
  'store',
  'h2',
  'h2+store',
  'grpc',
  'grpc+store',
  'grpc/h2',
  'grpc/h2+store',
] as const;
type Mode = (typeof MODES)[number];
const hasher = new BlobHasher();

/**
 * Hashes and writes received bytes to one file the way Ivory's blob writer does off the event
 * loop: 4 MiB chunks handed to the blob hasher thread (storage/blob-hasher.ts), fsync at the end.
 */
class Store {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private position = 0;
  private readonly id: number;
  private readonly closed: Promise<string | null>;
  private constructor(private readonly handle: FileHandle) {
    let close!: (hash: string | null) => void;
    this.closed = new Promise((resolve) => (close = resolve));
    this.id = hasher.open(handle.fd, { written: () => undefined, closed: (hash) => close(hash) });
  }
  static async open(dir: string): Promise<Store> {
    return new Store(await open(path.join(dir, `f-${Date.now()}-${Math.random()}`), 'w'));
  }
  add(bytes: Buffer): void {
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= WRITE_BYTES) this.flush();
  }
  private flush(): void {
    if (this.pendingBytes === 0) return;
    const bytes =
      this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    hasher.write(this.id, bytes, this.position);
    this.position += bytes.length;
  }
  async finish(): Promise<string> {
    this.flush();
    hasher.close(this.id, 'finish');
    const hash = await this.closed;
    await this.handle.sync();
    await this.handle.close();
    if (!hash) throw new Error('the hasher failed');
    return hash;
  }
}

async function serve(mode: Mode, dir: string): Promise<void> {
  const store = mode.endsWith('+store');
  if (mode === 'h2' || mode === 'h2+store') {
    const server = http2.createServer({
      settings: { initialWindowSize: WINDOW, maxFrameSize: FRAME_BYTES },
    });
    server.on('session', (session) => session.setLocalWindowSize(WINDOW));
    server.on('stream', (stream) => {
      void (async () => {
        const sink = store ? await Store.open(dir) : null;
        let bytes = 0;
        let chunks = 0;
        for await (const chunk of stream) {
          bytes += (chunk as Buffer).length;
          chunks++;
          sink?.add(chunk as Buffer);
        }
        await sink?.finish();
        stream.respond({ ':status': 200 });
        stream.end(JSON.stringify({ bytes, chunks }));
      })();
    });
    server.listen(0, '127.0.0.1', () => {
      console.log(`listening ${(server.address() as { port: number }).port}`);
    });
    return;
  }
  const server = new Server({ 'grpc.max_receive_message_length': 64 * MiB });
  const pass = (value: Buffer) => value;
  server.addService(
    {
      Upload: {
        path: '/ceiling.Ceiling/Upload',
        requestStream: true,
        responseStream: false,
        requestSerialize: pass,
        requestDeserialize: pass,
        responseSerialize: pass,
        responseDeserialize: pass,
      },
    },
    {
      Upload: (call: ServerReadableStream<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
        void (async () => {
          const sink = store ? await Store.open(dir) : null;
          let bytes = 0;
          let chunks = 0;
          for await (const message of call) {
            bytes += (message as Buffer).length;
            chunks++;
            sink?.add(message as Buffer);
          }
          await sink?.finish();
          callback(null, Buffer.from(JSON.stringify({ bytes, chunks })));
        })();
      },
    },
  );
  // The same widening as server/src/grpc/grpc-server.ts (grpc-js has no option for it).
  const internals = server as unknown as {
    commonServerOptions?: http2.ServerOptions;
    http2Servers?: Map<http2.Http2Server, unknown>;
  };
  if (internals.commonServerOptions)
    internals.commonServerOptions.settings = {
      ...internals.commonServerOptions.settings,
      initialWindowSize: WINDOW,
      maxFrameSize: FRAME_BYTES,
    };
  server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) => {
    if (error) throw error;
    for (const h2 of internals.http2Servers?.keys() ?? [])
      h2.on('session', (session: http2.ServerHttp2Session) => session.setLocalWindowSize(WINDOW));
    console.log(`listening ${port}`);
  });
}

/** CPU seconds by thread name (and 'loop' for the main thread) of a process. */
async function threadCpu(pid: number): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const task of await readdir(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = await readFile(`/proc/${pid}/task/${task}/stat`, 'utf8');
    } catch {
      continue;
    }
    const name =
      Number(task) === pid
        ? 'loop'
        : `${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}#${task}`;
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    const seconds = (Number(fields[11]) + Number(fields[12])) / 100;
    out[name] = (out[name] ?? 0) + seconds;
  }
  return out;
}

async function cpuAll(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function diff(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(b)) {
    const value = b[key]! - (a[key] ?? 0);
    if (value > 0.005) out[key] = Number(value.toFixed(2));
  }
  return out;
}

function startReceiver(mode: Mode, dir: string) {
  return startChildReceiver(import.meta.filename, ['--serve', mode, dir], 'the receiver');
}

async function sendH2(port: number, source: Buffer): Promise<string> {
  const session = http2.connect(`http://127.0.0.1:${port}`, {
    settings: { initialWindowSize: WINDOW, maxFrameSize: FRAME_BYTES },
  });
  await once(session, 'connect');
  session.setLocalWindowSize(WINDOW);
  const request = session.request({ ':method': 'POST', ':path': '/' });
  for (let at = 0; at < source.length; at += WRITE_BYTES)
    if (!request.write(source.subarray(at, at + WRITE_BYTES))) await once(request, 'drain');
  request.end();
  let text = '';
  for await (const chunk of request) text += String(chunk);
  session.close();
  return text;
}

async function sendGrpc(client: Client, source: Buffer): Promise<string> {
  let call: ClientWritableStream<Buffer> | undefined;
  const answer = new Promise<Buffer>((resolve, reject) => {
    call = client.makeClientStreamRequest(
      '/ceiling.Ceiling/Upload',
      (value: Buffer) => value,
      (value: Buffer) => value,
      new Metadata(),
      (error: ServiceError | null, value?: Buffer) => (error ? reject(error) : resolve(value!)),
    );
  });
  for (let at = 0; at < source.length; at += WRITE_BYTES)
    if (!call!.write(source.subarray(at, at + WRITE_BYTES))) await once(call!, 'drain');
  call!.end();
  return String(await answer);
}

/** gRPC's wire format over node:http2 (5-byte prefix, then the message), no grpc-js. */
async function sendGrpcLean(port: number, source: Buffer): Promise<string> {
  const session = http2.connect(`http://127.0.0.1:${port}`, {
    settings: { initialWindowSize: WINDOW, maxFrameSize: FRAME_BYTES },
  });
  await once(session, 'connect');
  session.setLocalWindowSize(WINDOW);
  const request = session.request({
    ':method': 'POST',
    ':path': '/ceiling.Ceiling/Upload',
    'content-type': 'application/grpc',
    te: 'trailers',
  });
  for (let at = 0; at < source.length; at += WRITE_BYTES) {
    const message = source.subarray(at, at + WRITE_BYTES);
    const prefix = Buffer.alloc(5);
    prefix.writeUInt32BE(message.length, 1);
    request.write(prefix);
    if (!request.write(message)) await once(request, 'drain');
  }
  request.end();
  let text = '';
  for await (const chunk of request) text += String(chunk);
  session.close();
  return text.slice(5);
}

async function main(): Promise<void> {
  const modes = process.argv
    .slice(2)
    .filter((m) => (MODES as readonly string[]).includes(m)) as Mode[];
  const source = Buffer.allocUnsafe(FILE_BYTES);
  for (let at = 0; at < FILE_BYTES; at += 4) source.writeUInt32LE((at * 2654435761) >>> 0, at);
  const dir = await mkdtemp(path.join(tmpdir(), 'ivory-ceiling-'));
  console.log(
    `${FILE_BYTES / MiB} MiB in ${WRITE_BYTES / MiB} MiB writes, max frame ${FRAME_BYTES / 1024} KiB, ${ROUNDS} rounds`,
  );
  try {
    for (const mode of modes.length ? modes : MODES) {
      if (mode === 'store') {
        const rates: string[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const c0 = process.cpuUsage();
          const started = process.hrtime.bigint();
          const sink = await Store.open(dir);
          for (let at = 0; at < source.length; at += WRITE_BYTES)
            sink.add(source.subarray(at, at + WRITE_BYTES));
          await sink.finish();
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          const c = process.cpuUsage(c0);
          rates.push(
            `${(FILE_BYTES / MiB / seconds).toFixed(0)} (CPU ${((c.user + c.system) / 1e6).toFixed(2)} s)`,
          );
        }
        console.log(`store       MiB/s ${rates.join(', ')}`);
        continue;
      }
      const receiver = await startReceiver(mode, dir);
      const client =
        mode.startsWith('grpc') && !mode.startsWith('grpc/h2')
          ? new Client(`127.0.0.1:${receiver.port}`, credentials.createInsecure(), {
              'grpc-node.flow_control_window': WINDOW,
              'grpc.max_send_message_length': 64 * MiB,
              'grpc.http2.max_frame_size': FRAME_BYTES,
            } as Record<string, number>)
          : null;
      const rates: string[] = [];
      const cpu: string[] = [];
      let last = '';
      for (let round = 0; round < ROUNDS; round++) {
        const t0 = await threadCpu(receiver.pid);
        const a0 = await cpuAll(receiver.pid);
        const c0 = process.cpuUsage();
        const started = process.hrtime.bigint();
        last = client
          ? await sendGrpc(client, source)
          : mode.startsWith('grpc/h2')
            ? await sendGrpcLean(receiver.port, source)
            : await sendH2(receiver.port, source);
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const c = process.cpuUsage(c0);
        const a1 = await cpuAll(receiver.pid);
        const t1 = await threadCpu(receiver.pid);
        rates.push((FILE_BYTES / MiB / seconds).toFixed(0));
        cpu.push(
          `recv ${(a1 - a0).toFixed(2)} ${JSON.stringify(diff(t0, t1))} send ${((c.user + c.system) / 1e6).toFixed(2)}`,
        );
      }
      console.log(`${mode.padEnd(11)} MiB/s ${rates.join(', ')}   (${last})`);
      for (const line of cpu) console.log(`            CPU s ${line}`);
      client?.close();
      await receiver.kill();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--serve') await serve(process.argv[3] as Mode, process.argv[4]!);
else {
  await main();
  // Every figure is printed; a client session that lingers after its receiver exited must not
  // keep the benchmark from ending (it did: the script printed all and then waited forever).
  process.exit(0);
}
