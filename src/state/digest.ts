/**
 * SHA-256 and random names through Bun's own hasher and Web Crypto: node:crypto takes a fresh process about
 * 3 ms to load, which every hook call would pay. Same digests (hex) as node's createHash.
 */
export const sha256 = (): Bun.CryptoHasher => new Bun.CryptoHasher("sha256");

export const sha256Hex = (data: string | Uint8Array): string => sha256().update(data).digest("hex");

/** `bytes` random bytes as hex (for names that must not collide). */
export const randomHex = (bytes: number): string => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
