/** Field names that may hold a secret; their values never reach a file the harness writes. */
const SECRET = /(api[-_]?key|secret|token$|password|authorization|auth[-_]?token)/i;

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

/** Values of the key variables in the environment (never written; used to mask accidental copies). */
export function envSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  return ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY']
    .map((k) => env[k])
    .filter((v): v is string => typeof v === 'string' && v.length >= 8);
}

export function maskSecrets(text: string, secrets: string[] = envSecrets()): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[redacted]');
  return out;
}
