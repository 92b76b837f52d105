/** Field names that may hold a secret; their values never reach a file the harness writes. */
const SECRET = /(api[-_]?key|secret|token$|password|authorization|auth[-_]?token)/i;

/** The environment variables that hold provider keys. */
export const KEY_VARS = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'] as const;

/**
 * The key as the providers send it. Masking uses this same function, so the form a server can echo
 * back (trimmed: no trailing CR, newline or blank from a pasted value) is the form that is masked.
 */
export function keyAsSent(raw: string | undefined): string | undefined {
  const key = raw?.trim();
  return key ? key : undefined;
}

/** A deep copy with secret-looking fields replaced by "[redacted]" and known key values masked in strings. */
export function redact(value: unknown, secrets: string[] = envSecrets()): unknown {
  if (typeof value === 'string') return maskSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[k] = SECRET.test(k) && typeof v === 'string' ? '[redacted]' : redact(v, secrets);
    return out;
  }
  return value;
}

/**
 * Values of the key variables in the environment, as set and as sent (never written; used to mask
 * accidental copies). Longest first, so a raw form that contains the sent form is masked whole.
 */
export function envSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  const forms = KEY_VARS.flatMap((k) => [env[k], keyAsSent(env[k])]).filter(
    (v): v is string => typeof v === 'string' && v.trim().length >= 8,
  );
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

export function maskSecrets(text: string, secrets: string[] = envSecrets()): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[redacted]');
  return out;
}
