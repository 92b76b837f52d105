import type { ResolvedConfig } from '../config/types.ts';
import { anthropicKeys, openaiKeys, resolveClientSettings } from '../providers/wire-client.ts';
import { maskSecrets } from '../core/redact.ts';

/** What a provider says about its model ids: the ids, or why they could not be listed (a note, not a failure). */
export type ModelList = { ids: ReadonlySet<string>; at: string } | { skipped: string } | { problem: string };

/** Lists a provider's model ids (injectable: tests answer from a table or a 127.0.0.1 server). */
export type ModelLister = (provider: string, config: ResolvedConfig) => Promise<ModelList>;

/**
 * The vendors' own model lists (`models.list`, a free metadata call), for the two built-in real
 * providers: without a key it is skipped with a note (offline `validate` still works); a rejected key
 * (401/403) is a problem — the run would stop on it (exit 4); any other failure (no network, a
 * compatible server without /models) is a note. A provider of the config's own is not listed.
 */
export const listVendorModels: ModelLister = async (provider, config) => {
  if (provider !== 'openai' && provider !== 'anthropic')
    return { skipped: `provider ${provider} does not list its models` };
  const spec = provider === 'openai' ? openaiKeys : anthropicKeys;
  let settings;
  try {
    settings = resolveClientSettings(spec, config, process.env);
  } catch {
    return { skipped: `no ${spec.keyVar} in the environment` };
  }
  const options = {
    apiKey: settings.apiKey,
    maxRetries: 1,
    timeout: Math.min(settings.timeoutMs, 20_000),
    ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
  };
  const at =
    settings.baseURL ?? (provider === 'openai' ? 'https://api.openai.com/v1' : 'https://api.anthropic.com');
  try {
    const ids = new Set<string>();
    const client =
      provider === 'openai'
        ? new (await import('openai')).default(options)
        : new (await import('@anthropic-ai/sdk')).default(options);
    // Bounded: a vendor lists a few hundred ids; 50,000 is far past any real list.
    for await (const model of client.models.list() as AsyncIterable<{ id: string }>) {
      ids.add(model.id);
      if (ids.size > 50_000) break;
    }
    return { ids, at };
  } catch (err) {
    const status = (err as { status?: number }).status;
    const message = maskSecrets(firstLine((err as Error).message), settings.secrets);
    if (status === 401 || status === 403)
      return {
        problem: `${provider}: the key in ${spec.keyVar} was refused listing models at ${at} (HTTP ${status}): ${message}`,
      };
    return { skipped: `could not list ${provider}'s models at ${at}: ${message}` };
  }
};

const firstLine = (s: string) => s.split('\n')[0] ?? s;
