import { createHash } from 'node:crypto';

/**
 * A seeded random stream (sfc32 over a sha256 of the seed string). The sim draws from a stream per
 * (run seed, case, rep, call purpose, call index, assertion) — never per arm, so two arms that render
 * the same thing get the same draws (common random numbers) and differences come from the renderings.
 */
export function rngFor(...parts: (string | number)[]): () => number {
  const h = createHash('sha256').update(parts.join('\u0000')).digest();
  let a = h.readUInt32LE(0),
    b = h.readUInt32LE(4),
    c = h.readUInt32LE(8),
    d = h.readUInt32LE(12);
  return () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const r = (t + d) | 0;
    c = (c + r) | 0;
    return (r >>> 0) / 4294967296;
  };
}

/** One draw for a named decision: stable regardless of how many other decisions were drawn before. */
export function draw(seed: string, ...parts: (string | number)[]): number {
  return rngFor(seed, ...parts)();
}
