import { createHash } from 'node:crypto';

/**
 * A seeded uniform stream (sfc32 over a sha256 of the seed parts). Report statistics that resample
 * seed it from the run seed and what is being estimated, so a report rebuilt from the same journal —
 * in any row order, on any machine — gives the same numbers.
 */
export function seededRandom(...parts: (string | number)[]): () => number {
  const h = createHash('sha256').update(parts.map(String).join('\u0000')).digest();
  let a = h.readUInt32LE(0),
    b = h.readUInt32LE(4),
    c = h.readUInt32LE(8),
    d = h.readUInt32LE(12);
  return () => {
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box–Muller) from a uniform stream; for synthetic data and tests. */
export function normalDraw(rand: () => number): number {
  const u = 1 - rand();
  const v = rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
