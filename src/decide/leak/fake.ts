/**
 * Look-alike values for rule examples, assembled at run time from a seeded generator so that no file
 * holds anything resembling a real credential.
 */
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
export const B64URL = `${ALNUM}-_`;
export const B64 = `${ALNUM}+/`;
export const HEX = "0123456789abcdef";
export const LETTERS = ALNUM.slice(0, 52);
/** Joins parts, so that no prefix of a credential is written whole in a source file. */
export const P = (...parts: string[]) => parts.join("");

export function fake(length: number, alphabet = ALNUM, seed = length): string {
  let x = (seed * 2654435761) >>> 0 || 1;
  let s = "";
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    s += alphabet[x % alphabet.length];
  }
  return s;
}

export const b64url = (s: string) => Buffer.from(s).toString("base64url");

/** A JWT-shaped token: header and payload are real base64url JSON, the signature is noise. */
export function fakeJwt(seed = 7): string {
  const header = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = b64url(JSON.stringify({ sub: "fixture", iat: 1767225600 }));
  return [header, payload, fake(43, B64URL, seed)].join(".");
}
