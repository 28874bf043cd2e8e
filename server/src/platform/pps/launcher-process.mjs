// The launcher: a small Node process the pipeline runner starts once and keeps. It prepares,
// starts and collects datum processes on the server's behalf: forking the large server process
// for every datum costs several milliseconds of blocking time, forking this one costs little.
// Plain JavaScript, so it starts without a TypeScript loader.
//
// Protocol: JSON lines. In (stdin):
//   {"t":"run","id":1,"cmd":["sh","-c","…"],"cwd":"…","env":{…},"stdin":"…","timeoutMs":0,
//    "group":"job-7","limit":2,          run when fewer than `limit` of `group` are running
//    "accept":[1],                      exit codes that count as success (besides 0)
//    "prepare":{"clean":"…"|null,"dirs":["…"],"copies":[["src","dst",size]],"empties":["…"]},
//    "collect":{"out":"…","remove":["…"]}}   (both optional)
//   {"t":"kill","id":1}           kill it (its whole process group) or drop it from the queue
// Out (stdout):
//   {"t":"line","id":1,"line":"…"}   one line of its stdout or stderr
//   {"t":"exit","id":1,"code":0,"signal":null,"timedOut":false,"killed":false,"error":"","ms":3,
//    "prepareMs":1,"collectMs":1,"outputs":[{"path","hash","sizeBytes"}],"collectError":"",
//    "prepareError":""}           (a request whose prepare failed never runs)
// `prepare` runs as soon as the request arrives, while earlier processes still run: `clean`
// is removed, `dirs` made, `copies` copied (reflinks where the filesystem can), `empties`
// created empty. `collect` runs after a successful exit, once the next process has started:
// every file under `out` is hashed (a link to a file is replaced by a copy), then `remove` is
// removed. File operations are asynchronous: starting processes is never held up by them.
// A process's stdout and stderr go to one file under the folder given as argv[2], read as it
// grows (lines reach the server within 200 ms); the file is reused for a later process.
// When stdin ends (the server is gone), every process it started is killed and it exits.
import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  createReadStream,
  mkdirSync,
  openSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** Where the processes' output is staged while they run (argv[2]). */
const logDir = process.argv[2];
rmSync(logDir, { recursive: true, force: true });
mkdirSync(logDir, { recursive: true });
const readBuffer = Buffer.alloc(64 * 1024);
/** Files up to this size are read whole to hash them; bigger ones are streamed. */
const smallFile = 4 * 1024 * 1024;
/** Log files not in use: truncated and reused (cheaper than creating and removing one each). */
const freeLogs = [];
let logCount = 0;

/** @type {Map<string, {running: number, limit: number, queue: any[]}>} */
const groups = new Map();
/** Requests being prepared or queued or running, by id. */
const entries = new Map();

let outBuffer = [];
function send(message) {
  outBuffer.push(JSON.stringify(message));
  if (outBuffer.length === 1) setImmediate(flushOut);
}
function flushOut() {
  if (outBuffer.length === 0) return;
  const text = outBuffer.join('\n') + '\n';
  outBuffer = [];
  process.stdout.write(text);
}

function group(name) {
  let g = groups.get(name);
  if (!g) {
    g = { running: 0, limit: 1, queue: [] };
    groups.set(name, g);
  }
  return g;
}

/**
 * Datum processes are started by long-lived shells (`sh`, each in a process group of its own):
 * forking a small shell costs far less than forking this Node process. A shell runs one process
 * at a time: it reports the process's pid ("P <id> <pid>") and exit status ("X <id> <status>").
 * Killing a process (a timeout, a stop) kills the shell's whole process group — the shell, the
 * process and whatever it started — and the shell is replaced.
 */
const workers = new Set();
const idleWorkers = [];
const signalNames = Object.fromEntries(
  Object.entries(osConstants.signals).map(([name, n]) => [n, name]),
);

function newWorker() {
  const child = spawn('/bin/sh', [], {
    stdio: ['pipe', 'pipe', 'ignore'],
    env: {},
    detached: true,
  });
  const worker = { child, current: null, dead: false };
  workers.add(worker);
  child.stdin.on('error', () => undefined);
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
  lines.on('line', (line) => {
    const [kind, id, value] = line.split(' ');
    if (kind === 'X' && worker.current && String(worker.current.id) === id)
      worker.current.onExit(Number(value));
  });
  const gone = () => {
    if (worker.dead) return;
    worker.dead = true;
    workers.delete(worker);
    const index = idleWorkers.indexOf(worker);
    if (index !== -1) idleWorkers.splice(index, 1);
    worker.current?.onWorkerGone();
  };
  child.on('exit', gone);
  child.on('error', gone);
  return worker;
}

function killWorker(worker) {
  if (worker.dead) return;
  try {
    process.kill(-worker.child.pid, 'SIGKILL');
  } catch {
    worker.child.kill('SIGKILL');
  }
}

const quote = (text) => `'${String(text).replace(/'/g, "'\\''")}'`;
const shellName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The shell command that runs a request: cd, environment, exec, its output to `logPath`. */
function shellCommand(request, logPath, stdinPath) {
  const env = Object.entries(request.env ?? {});
  const argv = request.cmd.map(quote).join(' ');
  // `env -i` (one more exec) only when a variable's name is not a shell name.
  const run = env.every(([name]) => shellName.test(name))
    ? `${env.length > 0 ? `export ${env.map(([k, v]) => quote(`${k}=${v}`)).join(' ')}; ` : ''}exec ${argv}`
    : `exec env -i ${env.map(([k, v]) => quote(`${k}=${v}`)).join(' ')} ${argv}`;
  return (
    `(cd ${quote(request.cwd)} && ${run}) <${quote(stdinPath)} >>${quote(logPath)} 2>&1 & ` +
    `wait $!; echo "X ${request.id} $?"\n`
  );
}

function exitMessage(entry, fields) {
  return {
    t: 'exit',
    id: entry.request.id,
    code: null,
    signal: null,
    timedOut: entry.timedOut,
    killed: entry.killed,
    error: '',
    ms: 0,
    prepareMs: entry.prepareMs,
    collectMs: 0,
    outputs: [],
    collectError: '',
    prepareError: '',
    ...fields,
  };
}

async function prepare(spec) {
  if (spec.clean) await fsp.rm(spec.clean, { recursive: true, force: true });
  for (const dir of spec.dirs) await fsp.mkdir(dir, { recursive: true });
  await Promise.all(
    spec.copies.map(([src, dst]) => fsp.copyFile(src, dst, constants.COPYFILE_FICLONE)),
  );
  await Promise.all(spec.empties.map((file) => fsp.writeFile(file, '')));
}

async function hashFile(file, size) {
  const hasher = createHash('sha256');
  if (size <= smallFile) hasher.update(await fsp.readFile(file));
  else for await (const chunk of createReadStream(file)) hasher.update(chunk);
  return hasher.digest('hex');
}

async function collect(spec) {
  const outputs = [];
  const walk = async (dir, prefix) => {
    const names = await fsp.readdir(dir, { withFileTypes: true });
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of names) {
      const full = path.join(dir, entry.name);
      const info = entry.isSymbolicLink() ? await fsp.stat(full) : null;
      if (entry.isDirectory() || info?.isDirectory()) await walk(full, `${prefix}/${entry.name}`);
      else if (entry.isFile() || info?.isFile()) {
        // A link to a file becomes a copy of it: the staged file is what lands in the store.
        if (info) {
          await fsp.copyFile(full, `${full}.ivory-link`);
          await fsp.rename(`${full}.ivory-link`, full);
        }
        const size = info ? info.size : (await fsp.stat(full)).size;
        outputs.push({
          path: `${prefix}/${entry.name}`,
          hash: await hashFile(full, size),
          sizeBytes: size,
        });
      }
    }
  };
  await walk(spec.out, '');
  await Promise.all(spec.remove.map((dir) => fsp.rm(dir, { recursive: true, force: true })));
  return outputs;
}

function pump(name) {
  const g = group(name);
  while (g.running < Math.max(1, g.limit) && g.queue.length > 0) {
    const entry = g.queue.shift();
    g.running += 1;
    start(entry);
  }
  if (g.running === 0 && g.queue.length === 0) groups.delete(name);
}

async function receive(request) {
  const entry = {
    request,
    worker: null,
    timedOut: false,
    killed: false,
    phase: 'preparing',
    prepareMs: 0,
  };
  entries.set(request.id, entry);
  if (request.prepare) {
    const started = performance.now();
    try {
      await prepare(request.prepare);
    } catch (error) {
      entries.delete(request.id);
      send(exitMessage(entry, { prepareError: error.message }));
      return;
    }
    entry.prepareMs = Math.round(performance.now() - started);
  }
  if (entry.killed) {
    entries.delete(request.id);
    send(exitMessage(entry, {}));
    return;
  }
  entry.phase = 'queued';
  const g = group(request.group);
  g.limit = request.limit;
  g.queue.push(entry);
  pump(request.group);
}

function start(entry) {
  const request = entry.request;
  entry.phase = 'running';
  const started = performance.now();
  let timer = null;
  let tail = null;
  // Its stdout and stderr go to one file (cheaper than two pipes), read while it runs.
  const logPath = freeLogs.pop() ?? path.join(logDir, String(++logCount));
  let fd;
  let offset = 0;
  let pending = '';
  const readLog = () => {
    for (;;) {
      let n = 0;
      try {
        n = readSync(fd, readBuffer, 0, readBuffer.length, offset);
      } catch {
        return;
      }
      if (n === 0) return;
      offset += n;
      pending += readBuffer.toString('utf8', 0, n);
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        send({ t: 'line', id: request.id, line: pending.slice(0, newline) });
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    }
  };
  let finished = false;
  const done = (result) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    clearInterval(tail);
    if (fd !== undefined) {
      readLog();
      if (pending) send({ t: 'line', id: request.id, line: pending });
      try {
        closeSync(fd);
        freeLogs.push(logPath);
      } catch {
        // closed already
      }
      fd = undefined;
    }
    const ms = Math.round(performance.now() - started);
    // The next process starts before this one's outputs are read.
    group(request.group).running -= 1;
    pump(request.group);
    const succeeded =
      !result.error &&
      !entry.killed &&
      !entry.timedOut &&
      !result.signal &&
      (result.code === 0 || (request.accept ?? []).includes(result.code));
    if (!request.collect || !succeeded) {
      entries.delete(request.id);
      send(exitMessage(entry, { ...result, ms }));
      return;
    }
    entry.phase = 'collecting';
    const collectStarted = performance.now();
    collect(request.collect).then(
      (outputs) => {
        entries.delete(request.id);
        send(
          exitMessage(entry, {
            ...result,
            ms,
            outputs,
            collectMs: Math.round(performance.now() - collectStarted),
          }),
        );
      },
      (error) => {
        entries.delete(request.id);
        send(exitMessage(entry, { ...result, ms, collectError: error.message }));
      },
    );
  };
  try {
    fd = openSync(logPath, 'w+');
  } catch (error) {
    done({ error: `cannot open its log: ${error.message}` });
    return;
  }
  let stdinPath = null;
  if (request.stdin) {
    stdinPath = `${logPath}.in`;
    try {
      writeFileSync(stdinPath, request.stdin);
    } catch (error) {
      done({ error: `cannot write its stdin: ${error.message}` });
      return;
    }
  }
  let worker;
  try {
    worker = idleWorkers.pop() ?? newWorker();
  } catch (error) {
    done({ error: error.message });
    return;
  }
  entry.worker = worker;
  worker.current = {
    id: request.id,
    onExit: (status) => {
      worker.current = null;
      if (!worker.dead) idleWorkers.push(worker);
      if (status >= 128 && status - 128 in signalNames)
        done({ code: null, signal: signalNames[status - 128] });
      else done({ code: status, signal: null });
    },
    onWorkerGone: () => {
      worker.current = null;
      if (entry.killed || entry.timedOut) done({ code: null, signal: 'SIGKILL' });
      else done({ error: 'the shell that started it exited' });
    },
  };
  worker.child.stdin.write(
    shellCommand(request, logPath, stdinPath === null ? '/dev/null' : stdinPath),
  );
  tail = setInterval(readLog, 200);
  if (request.timeoutMs > 0) {
    timer = setTimeout(() => {
      entry.timedOut = true;
      killWorker(worker);
    }, request.timeoutMs);
  }
}

function kill(id) {
  const entry = entries.get(id);
  if (!entry) return;
  entry.killed = true;
  if (entry.phase === 'queued') {
    const g = group(entry.request.group);
    g.queue = g.queue.filter((e) => e !== entry);
    entries.delete(id);
    send(exitMessage(entry, {}));
    pump(entry.request.group);
  } else if (entry.phase === 'running' && entry.worker) killWorker(entry.worker);
}

const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', (line) => {
  if (!line) return;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.t === 'run') void receive(message);
  else if (message.t === 'kill') kill(message.id);
});
input.on('close', () => {
  for (const worker of workers) killWorker(worker);
  flushOut();
  process.exit(0);
});
process.stdout.on('error', () => process.exit(0));
