/**
 * A response whose body cannot be used: it does not decode, is not JSON, or has the wrong shape. The
 * message stays generic (the SDK classifies a fetch failure whose text mentions a timeout as a
 * timeout, and a body can say anything); the body's first bytes are kept apart.
 */
export class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly problem: string,
    readonly bodyStart: string,
  ) {
    super(`HTTP ${status}: the response body ${problem}`);
    this.name = 'BodyError';
  }
}

/** The first bytes of a body as printable text: ASCII as it is, anything else as \xNN. */
export function bodyStart(bytes: Uint8Array, max = 80): string {
  let out = '';
  for (const b of bytes.subarray(0, max))
    out += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  return bytes.length > max ? `${out}…` : out;
}

/**
 * The BodyError of a 2xx body, if it has one: it must be JSON and pass the call's shape check. Also
 * returns the parsed value, so the SDK does not parse it again.
 */
export function checkBody(
  status: number,
  bytes: Buffer,
  /** The call's shape check (AttemptTag.check in transport.ts): undefined when fine, else what is wrong. */
  check: ((json: unknown) => string | undefined) | undefined,
): { error?: BodyError; json?: unknown } {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { error: new BodyError(status, 'is not JSON', bodyStart(bytes)) };
  }
  const problem = check?.(json);
  return problem
    ? { error: new BodyError(status, `has the wrong shape (${problem})`, bodyStart(bytes)) }
    : { json };
}
