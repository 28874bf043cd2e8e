/**
 * The seccomp filter a sandbox's processes run under (bubblewrap's `--seccomp FD`): no new user
 * namespaces. A process inside could otherwise become root of a namespace of its own (`unshare
 * -U -r`), a needless kernel attack surface. `unshare` and `clone` with CLONE_NEWUSER answer
 * EPERM; `clone3` (whose flags a filter cannot read) answers ENOSYS, so C libraries fall back to
 * `clone`. Everything else is allowed. The same filter whether the server runs as root (bwrap
 * makes no user namespace then, and its `--disable-userns` needs one) or not.
 *
 * A classic BPF program (struct sock_filter: u16 code, u8 jt, u8 jf, u32 k, host byte order)
 * over struct seccomp_data (nr at 0, arch at 4, args at 16).
 */

const LD_W_ABS = 0x20;
const JMP_JEQ_K = 0x15;
const JMP_JSET_K = 0x45;
const RET_K = 0x06;

const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const RET_KILL_PROCESS = 0x80000000;
const EPERM = 1;
const ENOSYS = 38;
const CLONE_NEWUSER = 0x10000000;
/** x32 system calls: x86-64 numbers with this bit, under the x86-64 arch. */
const X32_BIT = 0x40000000;

interface ArchCalls {
  arch: number;
  unshare: number;
  clone: number;
  clone3: number;
  x32?: boolean;
}

/** The arches a process on this machine may call the kernel as (native and compat). */
const ARCHES: Record<string, ArchCalls[]> = {
  x64: [
    { arch: 0xc000003e, unshare: 272, clone: 56, clone3: 435, x32: true },
    { arch: 0x40000003, unshare: 310, clone: 120, clone3: 435 },
  ],
  arm64: [
    { arch: 0xc00000b7, unshare: 97, clone: 220, clone3: 435 },
    { arch: 0x40000028, unshare: 337, clone: 120, clone3: 435 },
  ],
};

type Instruction = { code: number; k: number; jt?: string; jf?: string } | { label: string };

/** The filter for this machine's architecture; null where it is not known (no filter then). */
export function noUserNamespacesFilter(arch: string = process.arch): Buffer | null {
  const arches = ARCHES[arch];
  if (!arches) return null;
  const program: Instruction[] = [{ code: LD_W_ABS, k: 4 }];
  arches.forEach((entry, i) =>
    program.push(
      { code: JMP_JEQ_K, k: entry.arch, jt: `arch${i}`, jf: `next${i}` },
      { label: `next${i}` },
    ),
  );
  // A system call of an arch not listed: none exists here; refused whole.
  program.push({ code: RET_K, k: RET_KILL_PROCESS });
  arches.forEach((entry, i) => {
    program.push({ label: `arch${i}` }, { code: LD_W_ABS, k: 0 });
    const numbers = entry.x32
      ? [0, X32_BIT].map((bit) => [entry.unshare | bit, entry.clone | bit, entry.clone3 | bit])
      : [[entry.unshare, entry.clone, entry.clone3]];
    numbers.forEach(([unshare, clone, clone3], j) => {
      const next = `arch${i}.${j}`;
      program.push(
        { code: JMP_JEQ_K, k: unshare as number, jt: 'flags', jf: `${next}a` },
        { label: `${next}a` },
        { code: JMP_JEQ_K, k: clone as number, jt: 'flags', jf: `${next}b` },
        { label: `${next}b` },
        { code: JMP_JEQ_K, k: clone3 as number, jt: 'enosys', jf: `${next}c` },
        { label: `${next}c` },
      );
    });
    program.push({ code: RET_K, k: RET_ALLOW });
  });
  program.push(
    { label: 'flags' },
    // The low 32 bits of the first argument (the flags of unshare and clone), little-endian.
    { code: LD_W_ABS, k: 16 },
    { code: JMP_JSET_K, k: CLONE_NEWUSER, jt: 'eperm', jf: 'allow' },
    { label: 'eperm' },
    { code: RET_K, k: RET_ERRNO | EPERM },
    { label: 'allow' },
    { code: RET_K, k: RET_ALLOW },
    { label: 'enosys' },
    { code: RET_K, k: RET_ERRNO | ENOSYS },
  );
  return assemble(program);
}

/** Instructions with labels → bytes, each jump an offset from the instruction after it. */
function assemble(program: Instruction[]): Buffer {
  const at = new Map<string, number>();
  let count = 0;
  for (const item of program) {
    if ('label' in item) at.set(item.label, count);
    else count++;
  }
  const out = Buffer.alloc(count * 8);
  let index = 0;
  for (const item of program) {
    if ('label' in item) continue;
    const offset = (label: string | undefined): number => {
      if (label === undefined) return 0;
      const target = at.get(label);
      if (target === undefined) throw new Error(`seccomp filter: no label ${label}`);
      const jump = target - index - 1;
      if (jump < 0 || jump > 255) throw new Error(`seccomp filter: jump to ${label} out of range`);
      return jump;
    };
    out.writeUInt16LE(item.code, index * 8);
    out.writeUInt8(offset(item.jt), index * 8 + 2);
    out.writeUInt8(offset(item.jf), index * 8 + 3);
    out.writeUInt32LE(item.k >>> 0, index * 8 + 4);
    index++;
  }
  return out;
}
