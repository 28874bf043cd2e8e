// The launcher: a small Node process the pipeline runner starts once and keeps. It prepares,
// starts and collects datum processes on the server's behalf: forking the large server process
// for every datum costs several milliseconds of blocking time, forking this one costs little.
// Plain JavaScript, so it starts without a TypeScript loader.
//
// Protocol: JSON lines. In (stdin):
//   {"t":"run","id":1,"cmd":["sh","-c","…"],"cwd":"…","env":{…},"stdin":"…","timeoutMs":0,
//    "group":"job-7","limit":2,          run when fewer than `limit` of `group` are running
//    "accept":[1],                      exit codes that count as success (besides 0)
//    "prepare":{"slot":{"root":"…","pfs":"…","inputs":["…"],"out":"…","trash":"…","token":"…"},
//               "dirs":["…"],"copies":[["src","dst",size]],"empties":["…"]},
//    "collect":{"out":"…","stage":"…"}}     (both optional)
//   {"t":"kill","id":1}           kill it (its whole process group) or drop it from the queue
//   {"t":"forget","prefix":"…"}   forget the slot folders under prefix (their job ended)
// Out (stdout):
//   {"t":"line","id":1,"line":"…"}   one line of its stdout or stderr
//   {"t":"exit","id":1,"code":0,"signal":null,"timedOut":false,"killed":false,"error":"","ms":3,
//    "prepareMs":1,"collectMs":1,"outputs":[{"path","hash","sizeBytes"}],"collectError":"",
//    "prepareError":""}           (a request whose prepare failed never runs)
//   Lines, and the exits of successful requests whose group has more than twice its `limit`
//   prepared ahead, are written within 10 ms, several at once; other exits at once.
// A slot is a datum folder (<root>/pfs/<input>…, <root>/pfs/out) that datums of one job reuse
// one after another: making and removing folders costs more here than running a small process.
// `prepare` runs as soon as the request arrives, while earlier processes still run: a slot not
// known to be empty (first use, a new token, or its last process failed) is removed and made
// again; then `dirs` are made, `copies` copied (reflinks where the filesystem can) and `empties`
// created empty. `collect` runs after a successful exit, once the next process has started:
// every file under `out` is hashed and moved to `stage`/<sha256> (a link to a file becomes a
// copy), then the slot is emptied for the next datum (what it held is moved to `trash`). After
// a failure the slot is left as it is (errCmd still sees the inputs) and is rebuilt by the next
// prepare. Small files are copied, read and renamed with synchronous calls (cheaper than a
// thread-pool round trip), over a spare file of an earlier datum when there is one; large ones
// asynchronously.
// Each shell's processes write their stdout and stderr to one log file of that shell under the
// folder given as argv[2], read as it grows (lines reach the server within 200 ms).
// When stdin ends (the server is gone), every process it started is killed and it exits.
import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { createHash, randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  copyFileSync,
  createReadStream,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { StringDecoder } from 'node:string_decoder';

/** Where the processes' output is staged while they run (argv[2]). */
const logDir = process.argv[2];
rmSync(logDir, { recursive: true, force: true });
mkdirSync(logDir, { recursive: true });
const readBuffer = Buffer.alloc(64 * 1024);
/** Files up to this size are read whole to hash them; bigger ones are streamed. */
const smallFile = 4 * 1024 * 1024;
/** Slot folders known to be empty and ready, by root: the token of the job run that made them. */
const readySlots = new Map();
/** Stage folders made already. */
const stages = new Set();
/** A shell's log file is emptied when a process ends and it has grown past this. */
const logLimit = 1024 * 1024;
let workerCount = 0;

/** @type {Map<string, {limit: number, queue: any[], shells: Set<any>}>} */
const groups = new Map();
/** Requests being prepared or queued or running, by id. */
const entries = new Map();

/**
 * Messages to the server are written together: at once (on the next turn of the event loop)
 * when `soon`, else within `batchMs`. A write wakes the server, which costs more than the
 * message; exits of a group with enough prepared requests ahead can wait for the next ones.
 */
const batchMs = 10;
let outBuffer = [];
let flushTimer = null;
let flushSoon = false;
function send(message, soon = true) {
  outBuffer.push(JSON.stringify(message));
  if (soon) {
    if (!flushSoon) {
      flushSoon = true;
      setImmediate(flushOut);
    }
  } else if (!flushTimer && !flushSoon) flushTimer = setTimeout(flushOut, batchMs);
}
function flushOut() {
  flushSoon = false;
  clearTimeout(flushTimer);
  flushTimer = null;
  if (outBuffer.length === 0) return;
  const text = outBuffer.join('\n') + '\n';
  outBuffer = [];
  process.stdout.write(text);
}

/**
 * Datum processes are started by long-lived shells (`sh`, each in a process group of its own):
 * forking a small shell costs far less than forking this Node process. A shell runs one process
 * at a time and reports each exit status ("X <id> <status>" on its stdout). A group's shells
 * are handed the group's next prepared request while they still run one, so a shell starts the
 * next process the moment the last one exits, without waiting for this process to answer.
 * Every process writes its stdout and stderr to its shell's log (fd 3, appending); after each
 * process the shell appends a marker line naming it, so output is never credited to the wrong
 * process. Killing a process (a timeout, a stop) kills the shell's whole process group — the
 * shell, the process and whatever it started — and the shell is replaced; a request that was
 * waiting in that shell is prepared again and queued first.
 */
const workers = new Set();
const idleWorkers = [];
const signalNames = Object.fromEntries(
  Object.entries(osConstants.signals).map(([name, n]) => [n, name]),
);
/** A group's shell runs one request and holds at most this many more. */
const shellQueueDepth = 1;
/** Part of the log markers: a process cannot end another's output by accident. */
const markerNonce = randomBytes(8).toString('hex');
const marker = (id) => `\x1e${markerNonce}:${id}\x1e\n`;

function newWorker() {
  const logPath = path.join(logDir, String(++workerCount));
  const logFd = openSync(logPath, 'w+');
  const child = spawn('/bin/sh', [], {
    stdio: ['pipe', 'pipe', 'ignore'],
    env: {},
    detached: true,
  });
  const worker = {
    child,
    /** Requests handed to it, in order: the first runs, the others wait in its input. */
    queue: [],
    /** Requests whose output may still be in the log (the first owns what is read next). */
    logOwners: [],
    group: null,
    dead: false,
    /** Set when this process killed it (a kill or a timeout of one of its requests). */
    killedOnPurpose: false,
    logPath,
    logFd,
    logOffset: 0,
    logText: '',
    decoder: new StringDecoder('utf8'),
  };
  workers.add(worker);
  child.stdin.on('error', () => undefined);
  child.stdin.write(`exec 3>>${quote(logPath)}\n`);
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
  lines.on('line', (line) => {
    const [kind, id, value] = line.split(' ');
    if (kind === 'X') onProcessExit(worker, Number(id), Number(value));
  });
  const gone = () => {
    if (worker.dead) return;
    worker.dead = true;
    workers.delete(worker);
    const index = idleWorkers.indexOf(worker);
    if (index !== -1) idleWorkers.splice(index, 1);
    onWorkerGone(worker);
    closeSync(worker.logFd);
    rmSync(worker.logPath, { force: true });
  };
  // 'close': every exit status it printed has been read by then.
  child.on('close', gone);
  child.on('error', gone);
  return worker;
}

function killWorker(worker) {
  if (worker.dead) return;
  worker.killedOnPurpose = true;
  try {
    process.kill(-worker.child.pid, 'SIGKILL');
  } catch {
    worker.child.kill('SIGKILL');
  }
}

const quote = (text) => `'${String(text).replace(/'/g, "'\\''")}'`;
const shellName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** dash's search path when the environment has none. */
const defaultPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** Names dash reads as its own (builtins, keywords): it would not run a program of that name. */
const shellWords = new Set(
  (
    '. : [ alias bg break cd chdir command continue echo eval exec exit export false fc fg ' +
    'getopts hash jobs kill local printf pwd read readonly return set shift test times trap ' +
    'true type ulimit umask unalias unset wait if then else elif fi case esac for while until ' +
    'do done { } ! in'
  ).split(' '),
);
/** Whether a name is a program on a PATH, by PATH and name, until `forget`. */
const programsOnPath = new Map();

/**
 * Whether the shell finds `name` as a program file on `searchPath`: in one of its absolute
 * folders, before any relative one (those depend on the working folder).
 */
function isProgramOnPath(name, searchPath) {
  const key = `${searchPath}\0${name}`;
  let found = programsOnPath.get(key);
  if (found !== undefined) return found;
  found = false;
  for (const dir of searchPath.split(':')) {
    if (!path.isAbsolute(dir)) break;
    const candidate = path.join(dir, name);
    try {
      if (statSync(candidate).isFile()) {
        accessSync(candidate, constants.X_OK);
        found = true;
        break;
      }
    } catch {
      // not there, or not executable: the next folder
    }
  }
  programsOnPath.set(key, found);
  return found;
}

/**
 * The shell command that runs a request: cd, environment, the program, its output to the log
 * (fd 3); then the marker and the exit line.
 *
 * When the program is a file the shell will find (a path, or a name on PATH that is not one of
 * the shell's own words) and every variable has a shell name, it runs as a simple command in a
 * group (`{ cd dir && VAR=value prog args; }`), which dash starts with vfork: cheaper than the
 * fork of a subshell, about a sixth of a trivial datum's time. (The shell's own working folder
 * changes with it; every command sets it.) Otherwise (`echo`, `exit`, a name on a relative PATH
 * folder, variables that need `env -i`) it runs in a subshell that execs it, where the program
 * runs rather than a builtin, and nothing it does touches this shell.
 */
function shellCommand(request, stdinPath) {
  const env = Object.entries(request.env ?? {});
  const [name = ''] = request.cmd;
  const argv = request.cmd.map(quote).join(' ');
  const redirect = `<${quote(stdinPath)} >&3 2>&3 3>&-`;
  const shellNames = env.every(([key]) => shellName.test(key));
  const simple =
    shellNames &&
    name !== '' &&
    !name.includes('=') &&
    !shellWords.has(name) &&
    (name.includes('/') || isProgramOnPath(name, request.env?.PATH ?? defaultPath));
  let run;
  if (simple) {
    const assignments = env.map(([k, v]) => `${k}=${quote(v)} `).join('');
    run = `{ cd ${quote(request.cwd)} && ${assignments}${argv}; } ${redirect}; s=$?`;
  } else {
    // `env -i` (one more exec) only when a variable's name is not a shell name.
    const exec = shellNames
      ? `${env.length > 0 ? `export ${env.map(([k, v]) => quote(`${k}=${v}`)).join(' ')}; ` : ''}exec ${argv}`
      : `exec env -i ${env.map(([k, v]) => quote(`${k}=${v}`)).join(' ')} ${argv}`;
    run = `(cd ${quote(request.cwd)} && ${exec}) ${redirect} & wait $!; s=$?`;
  }
  return `${run}; printf '%s' ${quote(marker(request.id))} >&3; echo "X ${request.id} $s"\n`;
}

/** Sends the complete lines of `text` as `entry`'s output; returns the unfinished last line. */
function sendLines(entry, text, final) {
  let start = 0;
  for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
    if (entry) send({ t: 'line', id: entry.request.id, line: text.slice(start, newline) }, false);
    start = newline + 1;
  }
  const rest = text.slice(start);
  if (!final) return rest;
  if (entry && rest) send({ t: 'line', id: entry.request.id, line: rest }, false);
  return '';
}

/** Reads what the shell's processes added to its log and credits it to its owners. */
function readLog(worker) {
  for (;;) {
    let n = 0;
    try {
      n = readSync(worker.logFd, readBuffer, 0, readBuffer.length, worker.logOffset);
    } catch {
      break;
    }
    if (n === 0) break;
    worker.logOffset += n;
    worker.logText += worker.decoder.write(readBuffer.subarray(0, n));
    if (n < readBuffer.length) break; // the end of the file, for now
  }
  for (;;) {
    const owner = worker.logOwners[0];
    const at = owner ? worker.logText.indexOf(marker(owner.request.id)) : -1;
    if (at === -1) {
      worker.logText = sendLines(owner, worker.logText, false);
      return;
    }
    sendLines(owner, worker.logText.slice(0, at), true);
    worker.logText = worker.logText.slice(at + marker(owner.request.id).length);
    worker.logOwners.shift();
  }
}

/** Reads the logs of busy shells while their processes run (lines reach the server soon). */
setInterval(() => {
  for (const worker of workers) if (worker.queue.length > 0) readLog(worker);
}, 200).unref();

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

/** Removes a slot folder and makes it again: <root>/pfs/<input>… and <root>/pfs/out. */
function rebuildSlot(slot) {
  readySlots.delete(slot.root);
  rmSync(slot.root, { recursive: true, force: true });
  mkdirSync(slot.trash, { recursive: true });
  mkdirSync(slot.pfs, { recursive: true });
  for (const dir of slot.inputs) mkdirSync(dir);
  mkdirSync(slot.out);
}

let trashCount = 0;
/**
 * Spare files by trash folder: input copies of earlier datums, overwritten in place to become a
 * later datum's input. A new file costs an inode, which ext4 allocates slowly after many
 * deletions; overwriting a spare one costs neither an inode nor new blocks.
 */
const spares = new Map();
const maxSpares = 64;

/**
 * Empties a slot after a successful datum so the next one finds only its own files. What it
 * held is moved to its `trash` folder (removed with the job's folder): a rename costs far less
 * than deleting a file, which frees its blocks. Input files become spares.
 */
function resetSlot(slot, outEmpty) {
  readySlots.delete(slot.root);
  const discard = (full) => {
    const target = path.join(slot.trash, `${process.pid}-${++trashCount}`);
    renameSync(full, target);
    return target;
  };
  let pool = spares.get(slot.trash);
  if (!pool) spares.set(slot.trash, (pool = []));
  for (const dir of slot.inputs)
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const moved = discard(path.join(dir, entry.name));
      // (One that has another name by then is not overwritten: see overwrite.)
      if (entry.isFile() && pool.length < maxSpares) pool.push(moved);
    }
  if (!outEmpty) for (const name of readdirSync(slot.out)) discard(path.join(slot.out, name));
  const expected = new Set([...slot.inputs, slot.out].map((dir) => path.basename(dir)));
  for (const name of readdirSync(slot.pfs))
    if (!expected.has(name)) discard(path.join(slot.pfs, name));
  readySlots.set(slot.root, slot.token);
}

const copyBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * Writes the bytes of `src` over the spare file `dst` in place (then cuts off what is left of its
 * old bytes and gives it the mode of `src`): truncating it first would free its blocks and the
 * write allocate new ones, which costs more on ext4 than the copy itself. A file with another
 * name (a link a process made) must keep its bytes: it is not written.
 */
function overwrite(src, dst) {
  const from = openSync(src, 'r');
  try {
    const to = openSync(dst, 'r+');
    try {
      const old = fstatSync(to);
      if (old.nlink !== 1 || !old.isFile()) throw new Error('not a spare file');
      let at = 0;
      for (;;) {
        const n = readSync(from, copyBuffer, 0, copyBuffer.length, at);
        for (let written = 0; written < n;)
          written += writeSync(to, copyBuffer, written, n - written, at + written);
        at += n;
        if (n < copyBuffer.length) break; // the end of the file
      }
      if (old.size > at) ftruncateSync(to, at);
      const mode = fstatSync(from).mode & 0o7777;
      if ((old.mode & 0o7777) !== mode) fchmodSync(to, mode);
    } finally {
      closeSync(to);
    }
  } finally {
    closeSync(from);
  }
}

/** Copies a small file to `dst`, over a spare file of the slot's trash when there is one. */
function copySmall(src, dst, slot) {
  const spare = slot ? spares.get(slot.trash)?.pop() : undefined;
  if (spare) {
    try {
      renameSync(spare, dst);
    } catch {
      // gone with its job's folder: a new file then
      copyFileSync(src, dst);
      return;
    }
    try {
      overwrite(src, dst);
      return;
    } catch {
      // not writable (a process changed its mode) or linked: a new file then
      rmSync(dst, { force: true });
    }
  }
  copyFileSync(src, dst);
}

async function prepare(spec) {
  if (spec.slot && readySlots.get(spec.slot.root) !== spec.slot.token) rebuildSlot(spec.slot);
  if (spec.slot) readySlots.delete(spec.slot.root);
  const made = new Set([...(spec.slot?.inputs ?? []), spec.slot?.out]);
  const ensureDir = (dir) => {
    if (made.has(dir)) return;
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  };
  for (const dir of spec.dirs) ensureDir(dir);
  for (const [, dst] of spec.copies) ensureDir(path.dirname(dst));
  for (const file of spec.empties) ensureDir(path.dirname(file));
  for (const file of spec.empties) writeFileSync(file, '');
  const large = [];
  for (const [src, dst, size] of spec.copies) {
    if (size > smallFile) large.push(fsp.copyFile(src, dst, constants.COPYFILE_FICLONE));
    else copySmall(src, dst, spec.slot);
  }
  await Promise.all(large);
}

/** A file's sha256 and size: read whole when small, else streamed. */
async function hashFile(file) {
  const hasher = createHash('sha256');
  const fd = openSync(file, 'r');
  let size;
  try {
    size = fstatSync(fd).size;
    if (size <= smallFile) {
      const bytes = Buffer.allocUnsafe(size);
      let read = 0;
      while (read < size) {
        const n = readSync(fd, bytes, read, size - read, read);
        if (n === 0) break;
        read += n;
      }
      hasher.update(bytes.subarray(0, read));
      size = read;
    }
  } finally {
    closeSync(fd);
  }
  if (size > smallFile) {
    size = 0;
    for await (const chunk of createReadStream(file)) {
      hasher.update(chunk);
      size += chunk.length;
    }
  }
  return { hash: hasher.digest('hex'), size };
}

/** Hashes the outputs under `spec.out` and moves each to `spec.stage`/<hash>. */
async function collect(spec) {
  if (!stages.has(spec.stage)) {
    mkdirSync(spec.stage, { recursive: true });
    stages.add(spec.stage);
  }
  const outputs = [];
  /** Whether every entry of `out` was a file, now moved (nothing left to empty). */
  let outEmpty = true;
  const walk = async (dir, prefix) => {
    const names = readdirSync(dir, { withFileTypes: true });
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of names) {
      const full = path.join(dir, entry.name);
      const info = entry.isSymbolicLink() ? statSync(full) : null;
      if (entry.isDirectory() || info?.isDirectory()) {
        outEmpty = false;
        await walk(full, `${prefix}/${entry.name}`);
      } else if (entry.isFile() || info?.isFile()) {
        // A link to a file becomes a copy of it: the staged file is what lands in the store.
        if (info) {
          await fsp.copyFile(full, `${full}.ivory-link`);
          renameSync(`${full}.ivory-link`, full);
        }
        const { hash, size } = await hashFile(full);
        renameSync(full, path.join(spec.stage, hash));
        outputs.push({ path: `${prefix}/${entry.name}`, hash, sizeBytes: size });
      } else outEmpty = false;
    }
  };
  await walk(spec.out, '');
  return { outputs, outEmpty };
}

function group(name) {
  let g = groups.get(name);
  if (!g) {
    g = { limit: 1, queue: [], shells: new Set() };
    groups.set(name, g);
  }
  return g;
}

/** Hands a group's prepared requests to shells: up to `limit` shells, each a short queue. */
function pump(name) {
  const g = group(name);
  while (g.shells.size < Math.max(1, g.limit) && g.queue.length > 0) {
    let worker;
    try {
      worker = idleWorkers.pop() ?? newWorker();
    } catch (error) {
      const entry = g.queue.shift();
      entries.delete(entry.request.id);
      send(exitMessage(entry, { error: error.message }));
      continue;
    }
    worker.group = name;
    g.shells.add(worker);
    assign(worker, g.queue.shift());
  }
  for (const worker of g.shells) {
    while (worker.queue.length <= shellQueueDepth && g.queue.length > 0)
      assign(worker, g.queue.shift());
  }
  if (g.shells.size === 0 && g.queue.length === 0) groups.delete(name);
}

function assign(worker, entry) {
  const request = entry.request;
  let stdinPath = '/dev/null';
  if (request.stdin) {
    stdinPath = entry.stdinPath = `${worker.logPath}.${request.id}.in`;
    try {
      writeFileSync(stdinPath, request.stdin);
    } catch (error) {
      finish(entry, { error: `cannot write its stdin: ${error.message}` });
      return;
    }
  }
  entry.worker = worker;
  entry.phase = 'waiting';
  worker.queue.push(entry);
  worker.logOwners.push(entry);
  worker.child.stdin.write(shellCommand(request, stdinPath));
  if (worker.queue.length === 1) started(entry);
}

/** The request's process has started: the first in its shell's queue. */
function started(entry) {
  entry.phase = 'running';
  entry.started = performance.now();
  if (entry.request.timeoutMs > 0) {
    entry.timer = setTimeout(() => {
      entry.timedOut = true;
      killWorker(entry.worker);
    }, entry.request.timeoutMs);
  }
}

function release(worker) {
  const g = groups.get(worker.group);
  g?.shells.delete(worker);
  worker.group = null;
  if (worker.logOffset > logLimit && worker.logOwners.length === 0) {
    ftruncateSync(worker.logFd, 0);
    worker.logOffset = 0;
  }
  idleWorkers.push(worker);
}

function onProcessExit(worker, id, status) {
  const entry = worker.queue[0];
  if (!entry || entry.request.id !== id) return;
  readLog(worker);
  if (worker.logOwners[0] === entry) {
    // Its marker was not found (it cannot be missing, but its output must end with it).
    worker.logText = sendLines(entry, worker.logText, true);
    worker.logOwners.shift();
  }
  worker.queue.shift();
  const name = worker.group;
  if (worker.queue.length > 0) started(worker.queue[0]);
  else release(worker);
  if (status >= 128 && status - 128 in signalNames)
    finish(entry, { code: null, signal: signalNames[status - 128] });
  else finish(entry, { code: status, signal: null });
  pump(name);
}

function onWorkerGone(worker) {
  readLog(worker);
  const name = worker.group;
  groups.get(name)?.shells.delete(worker);
  const held = worker.queue;
  worker.queue = [];
  const requeue = [];
  held.forEach((entry, index) => {
    // What it printed last may lack its marker: it is still its own.
    if (worker.logOwners[0] === entry) sendLines(entry, worker.logText, true);
    worker.logText = '';
    worker.logOwners = worker.logOwners.filter((owner) => owner !== entry);
    if (entry.killed || entry.timedOut) finish(entry, { code: null, signal: 'SIGKILL' });
    else if (index === 0 && !worker.killedOnPurpose)
      finish(entry, { error: 'the shell that started it exited' });
    // Killed with another request of its shell: it never ran, or ran for an instant.
    else requeue.push(entry);
  });
  for (const entry of requeue.reverse()) void prepareAgain(entry);
  if (name !== null) pump(name);
}

/** A request whose shell was killed under it: its folder is rebuilt and it is queued first. */
async function prepareAgain(entry) {
  clearTimeout(entry.timer);
  if (entry.stdinPath) rmSync(entry.stdinPath, { force: true });
  Object.assign(entry, {
    worker: null,
    phase: 'preparing',
    started: 0,
    timer: null,
    stdinPath: null,
  });
  if (entry.request.prepare) {
    if (entry.request.prepare.slot) readySlots.delete(entry.request.prepare.slot.root);
    try {
      await prepare(entry.request.prepare);
    } catch (error) {
      entries.delete(entry.request.id);
      send(exitMessage(entry, { prepareError: error.message }));
      return;
    }
  }
  if (entry.killed) {
    entries.delete(entry.request.id);
    send(exitMessage(entry, {}));
    return;
  }
  entry.phase = 'queued';
  group(entry.request.group).queue.unshift(entry);
  pump(entry.request.group);
}

async function receive(request) {
  const entry = {
    request,
    worker: null,
    timedOut: false,
    killed: false,
    phase: 'preparing',
    prepareMs: 0,
    started: 0,
    timer: null,
    stdinPath: null,
  };
  entries.set(request.id, entry);
  if (request.prepare) {
    const begun = performance.now();
    try {
      await prepare(request.prepare);
    } catch (error) {
      entries.delete(request.id);
      send(exitMessage(entry, { prepareError: error.message }));
      return;
    }
    entry.prepareMs = Math.round(performance.now() - begun);
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

/**
 * Whether a group has enough requests prepared ahead (queued, or waiting in a shell) that the
 * server can hear of its exits a little later: it sends the next requests when it does.
 */
function wellFed(name) {
  const g = groups.get(name);
  if (!g) return false;
  let ahead = g.queue.length;
  for (const worker of g.shells) ahead += worker.queue.length - 1;
  return ahead > 2 * g.limit;
}

/** A request's process ended (or never started): its outputs are collected, its slot emptied. */
function finish(entry, result) {
  const request = entry.request;
  clearTimeout(entry.timer);
  if (entry.stdinPath) rmSync(entry.stdinPath, { force: true });
  const ms = entry.started ? Math.round(performance.now() - entry.started) : 0;
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
    ({ outputs, outEmpty }) => {
      const slot = request.prepare?.slot;
      try {
        if (slot) resetSlot(slot, outEmpty);
      } catch {
        // left as it is: the next prepare rebuilds it
      }
      entries.delete(request.id);
      send(
        exitMessage(entry, {
          ...result,
          ms,
          outputs,
          collectMs: Math.round(performance.now() - collectStarted),
        }),
        !wellFed(request.group),
      );
    },
    (error) => {
      entries.delete(request.id);
      send(exitMessage(entry, { ...result, ms, collectError: error.message }));
    },
  );
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
  } else if ((entry.phase === 'running' || entry.phase === 'waiting') && entry.worker)
    killWorker(entry.worker);
}

/** A job ended: its folders are forgotten, and which programs are on PATH is looked up anew. */
function forget(prefix) {
  const under = (dir) => dir === prefix || dir.startsWith(prefix + path.sep);
  for (const root of readySlots.keys()) if (under(root)) readySlots.delete(root);
  for (const stage of stages) if (under(stage)) stages.delete(stage);
  for (const trash of spares.keys()) if (under(trash)) spares.delete(trash);
  programsOnPath.clear();
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
  else if (message.t === 'forget') forget(message.prefix);
});
input.on('close', () => {
  for (const worker of workers) killWorker(worker);
  flushOut();
  process.exit(0);
});
process.stdout.on('error', () => process.exit(0));
