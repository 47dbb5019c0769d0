import { closeSync, fstatSync, openSync, readSync, constants } from "node:fs";

/**
 * The first `bytes` of a regular file as latin1 text; "" for anything else (missing, unreadable, a
 * directory, a FIFO or a device, which could block a hook or never end).
 */
export function readHead(path: string, bytes: number): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) return "";
    const buf = Buffer.alloc(bytes);
    return buf.subarray(0, readSync(fd, buf, 0, bytes, 0)).toString("latin1");
  } catch {
    return "";
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
