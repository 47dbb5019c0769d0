import { closeSync, openSync, readSync, fstatSync } from "node:fs";

/**
 * A small ELF reader: which machine a binary is built for and the newest GLIBC_x.y symbol version it
 * needs (from .gnu.version_r), so provisioning can reject a build before trying to run it.
 */
export interface ElfFacts {
  machine: "x64" | "arm64" | "ia32" | "arm" | "other";
  /** Newest GLIBC_ version required, e.g. "2.35"; undefined when it needs none (static or musl). */
  glibc?: string;
  /** The ELF interpreter names musl (a musl build). */
  musl: boolean;
}

const SHT_GNU_VERNEED = 0x6ffffffe;
const PT_INTERP = 3;

const MACHINES: Record<number, ElfFacts["machine"]> = { 62: "x64", 183: "arm64", 3: "ia32", 40: "arm" };

export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Read facts from an ELF file; undefined when it is not ELF. */
export function readElf(path: string): ElfFacts | undefined {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const read = (off: number, len: number): Buffer => {
      const b = Buffer.alloc(len);
      if (off < 0 || off + len > size) throw new Error("truncated ELF");
      readSync(fd, b, 0, len, off);
      return b;
    };
    const ident = read(0, 64);
    if (ident.readUInt32BE(0) !== 0x7f454c46) return undefined;
    const is64 = ident[4] === 2;
    const le = ident[5] === 1;
    const u16 = (b: Buffer, o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
    const u32 = (b: Buffer, o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
    const uN = (b: Buffer, o: number) => (is64 ? Number(le ? b.readBigUInt64LE(o) : b.readBigUInt64BE(o)) : u32(b, o));

    const machine = MACHINES[u16(ident, 18)] ?? "other";
    const phoff = uN(ident, is64 ? 32 : 28);
    const shoff = uN(ident, is64 ? 40 : 32);
    const phentsize = u16(ident, is64 ? 54 : 42);
    const phnum = u16(ident, is64 ? 56 : 44);
    const shentsize = u16(ident, is64 ? 58 : 46);
    const shnum = u16(ident, is64 ? 60 : 48);

    let musl = false;
    for (let i = 0; i < phnum; i++) {
      const ph = read(phoff + i * phentsize, phentsize);
      if (u32(ph, 0) !== PT_INTERP) continue;
      const off = uN(ph, is64 ? 8 : 4);
      const len = uN(ph, is64 ? 32 : 16);
      musl = /musl/.test(read(off, Math.min(len, 256)).toString("latin1"));
    }

    const sections = [] as { type: number; offset: number; size: number; link: number; info: number }[];
    if (shoff > 0 && shnum > 0) {
      const table = read(shoff, shnum * shentsize);
      for (let i = 0; i < shnum; i++) {
        const b = table.subarray(i * shentsize);
        sections.push({
          type: u32(b, 4),
          offset: uN(b, is64 ? 24 : 16),
          size: uN(b, is64 ? 32 : 20),
          link: u32(b, is64 ? 40 : 24),
          info: u32(b, is64 ? 44 : 28),
        });
      }
    }

    let glibc: string | undefined;
    for (const s of sections) {
      if (s.type !== SHT_GNU_VERNEED) continue;
      const strtab = sections[s.link];
      if (!strtab) continue;
      const strs = read(strtab.offset, strtab.size);
      const str = (o: number) => {
        const end = strs.indexOf(0, o);
        return strs.toString("latin1", o, end < 0 ? strs.length : end);
      };
      const data = read(s.offset, s.size);
      // Elf_Verneed: vn_version u16, vn_cnt u16, vn_file u32, vn_aux u32, vn_next u32 (same in 32 and 64 bit).
      let off = 0;
      for (let n = 0; n < s.info && off + 16 <= data.length; n++) {
        const cnt = u16(data, off + 2);
        let aux = off + u32(data, off + 8);
        for (let k = 0; k < cnt && aux + 16 <= data.length; k++) {
          // Elf_Vernaux: vna_hash u32, vna_flags u16, vna_other u16, vna_name u32, vna_next u32.
          const name = str(u32(data, aux + 8));
          const m = name.match(/^GLIBC_(\d+(?:\.\d+)+)$/);
          if (m?.[1] && (!glibc || compareVersions(m[1], glibc) > 0)) glibc = m[1];
          const next = u32(data, aux + 12);
          if (next === 0) break;
          aux += next;
        }
        const nextNeed = u32(data, off + 12);
        if (nextNeed === 0) break;
        off += nextNeed;
      }
    }
    return { machine, glibc, musl };
  } finally {
    closeSync(fd);
  }
}
