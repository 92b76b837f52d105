/** Field names that may hold a secret; their values never reach a file the harness writes. */
const SECRET = /(api[-_]?key|secret|token$|password|authorization|auth[-_]?token)/i;

/** The environment variables that hold provider keys. */
export const KEY_VARS = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'] as const;
/** The environment variables that hold base URLs, which may carry credentials (userinfo, `?api-key=`). */
export const URL_VARS = ['ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL'] as const;

/** `scheme://user:password@` (or `scheme://token@`): the credentials part of a URL. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;
/** Query parameter names that say they carry a credential (Azure's `api-key`, `?key=`, `?token=`, SAS `sig`). */
const KEY_NAMES =
  'api[-_]?key|apikey|key|token|access[-_]?token|auth|authorization|password|secret|sig|signature';
const KEY_NAME = new RegExp(`^(?:${KEY_NAMES})$`, 'i');
const KEY_PARAM = new RegExp(`([?&;](?:${KEY_NAMES})=)[^&#\\s"'<>]+`, 'gi');

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
  const forms = [
    ...KEY_VARS.flatMap((k) => [env[k], keyAsSent(env[k])]),
    ...URL_VARS.flatMap((k) => urlCredentials(env[k])),
  ].filter((v): v is string => typeof v === 'string' && v.trim().length >= 8);
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

/** The credentials a base URL carries (user, password, key-like query values), decoded and as written. */
export function urlCredentials(raw: string | undefined): string[] {
  if (!raw) return [];
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return [];
  }
  const out = [u.username, u.password];
  for (const [name, value] of u.searchParams) if (KEY_NAME.test(name)) out.push(value);
  return out.flatMap((v) => (v ? [v, safeDecode(v)] : []));
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/**
 * `text` with every known secret masked, and the credentials of any URL in it: userinfo
 * (`http://user:pw@host` → `http://[redacted]@host`) and key-like query values (`?api-key=…`).
 */
export function maskSecrets(text: string, secrets: string[] = envSecrets()): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[redacted]');
  if (out.includes('@')) out = out.replace(URL_USERINFO, '$1[redacted]@');
  if (out.includes('=')) out = out.replace(KEY_PARAM, '$1[redacted]');
  return out;
}

/**
 * A model's answer with the configured keys masked in everything it says (text, reasoning, tool-call
 * arguments), for every stored copy: results.jsonl, the reports and the response cache. The same
 * object when nothing needed masking (the common case costs a few `includes`).
 */
export function maskAnswer<T extends { text: string; toolCalls?: { input: unknown }[] }>(
  response: T,
  secrets: string[] = envSecrets(),
): T {
  if (secrets.length === 0) return response;
  const json = JSON.stringify(response);
  if (!secrets.some((s) => json.includes(JSON.stringify(s).slice(1, -1)))) return response;
  return maskStrings(response, secrets) as T;
}

function maskStrings(value: unknown, secrets: string[]): unknown {
  if (typeof value === 'string') {
    let out = value;
    for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[redacted]');
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => maskStrings(v, secrets));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskStrings(v, secrets)]));
  return value;
}
