import { randomHex } from "../../state/digest.ts";

/** A sortable, unique transaction id: UTC date and time plus randomness, e.g. 20261201-101502-ab12cd. */
export function newTxid(now = new Date()): string {
  const iso = now.toISOString();
  return `${iso.slice(0, 10).replaceAll("-", "")}-${iso.slice(11, 19).replaceAll(":", "")}-${randomHex(3)}`;
}
