import { Ajv } from 'ajv';
import { loadConfig } from '../harness/config/load-config.ts';
import { openCache } from '../harness/cache/index.ts';
import { HarnessError, InputError, ProviderError } from '../harness/core/errors.ts';
import { createProviders } from '../harness/providers/index.ts';
import { createCallPath } from '../harness/calls/call-path.ts';
import { indexText, matchClaim } from '../harness/core/text/cues.ts';
import type {
  Assertion,
  ModelRequestInput,
  ModelResponse,
  ToolSpec,
  Transcript,
} from '../harness/core/index.ts';
import { readSourceClaims, type SourceReading } from '../judges/source-claims.ts';
import { assertionKinds } from '../harness/core/index.ts';
import { contentCues } from './propose-labels.ts';

/**
 * `--labeller <provider>:<model>`: a model proposes assertions for a session, asked through the
 * harness call path — the provider's SDK retries, the response cache, a forced `propose_assertions`
 * tool call checked against its schema. Its proposals count only when their statement is verbatim
 * in what the agent wrote (a model may paraphrase or invent); they are merged after the
 * deterministic ones by the caller.
 */
export const proposeTool: ToolSpec = {
  name: 'propose_assertions',
  description:
    "Record the statements the agent made that a receiving agent must carry over faithfully: confident claims, hedges (the agent could not verify or determine), assumptions, and open questions. Quote each statement verbatim from the agent's own messages.",
  inputSchema: {
    type: 'object',
    required: ['assertions'],
    properties: {
      assertions: {
        type: 'array',
        items: {
          type: 'object',
          required: ['kind', 'statement', 'claim', 'cues'],
          properties: {
            kind: { enum: [...assertionKinds] },
            statement: { type: 'string', description: "verbatim sentence from the agent's messages" },
            claim: { type: 'string', description: 'the bare proposition, qualifier removed' },
            cues: { type: 'array', items: { type: 'string' }, description: '2-3 words of the statement' },
            qualifierCues: { type: 'array', items: { type: 'string' } },
            location: { enum: ['final_message', 'mid_transcript', 'tool_result_only'] },
          },
        },
      },
    },
  },
};

const validate = new Ajv({ strict: false }).compile(proposeTool.inputSchema);

export interface LabellerOptions {
  /** `anthropic:<model>` or `openai:<model>`. */
  spec: string;
  config?: string;
  caseId: string;
}

export async function modelProposals(
  sources: readonly Transcript[],
  o: LabellerOptions,
): Promise<Assertion[]> {
  return withLabeller(o, async (call) => {
    const response = await call({
      purpose: 'classify',
      system:
        'You label agent transcripts for an evaluation of context handoffs. Propose only statements the agent itself wrote, quoted verbatim.',
      messages: [{ role: 'user', text: agentText(sources) }],
      tools: [proposeTool],
      toolChoice: { type: 'tool', name: proposeTool.name },
      maxTokens: 4000,
      temperature: 0,
    });
    return accepted(response.toolCalls.find((c) => c.name === proposeTool.name)?.input, sources, o.spec);
  });
}

/**
 * Issue 26: where each proposed claim really is in the session — final message, between tool calls,
 * only in a tool result, or nowhere — read by the labeller model through the survival classifier's
 * requests (judges/source-claims.ts), the same reading live mode uses. The lexicon's location stays
 * the first opinion; the caller records where the two differ.
 */
export async function readLocations(
  sources: readonly Transcript[],
  assertions: readonly Assertion[],
  o: LabellerOptions,
): Promise<SourceReading> {
  return withLabeller(o, (call) =>
    readSourceClaims(
      call,
      { id: o.caseId, assertions: [...assertions], reference: { facts: [], caveats: [] } },
      sources,
    ),
  );
}

type LabellerCall = (r: ModelRequestInput) => Promise<ModelResponse>;

/** The labeller model behind the harness call path (SDK retries, response cache), closed afterwards. */
async function withLabeller<T>(o: LabellerOptions, use: (call: LabellerCall) => Promise<T>): Promise<T> {
  const at = o.spec.indexOf(':');
  const provider = at > 0 ? o.spec.slice(0, at) : o.spec;
  const model = at > 0 ? o.spec.slice(at + 1) : '';
  if (provider !== 'anthropic' && provider !== 'openai')
    throw new InputError(
      'usage',
      `--labeller: "${o.spec}": expected anthropic:<model> or openai:<model> (sim is not a model and cannot label)`,
    );
  if (model === '') throw new InputError('usage', `--labeller: "${o.spec}": name the model after the colon`);
  const loaded = await loadConfig(o.config, { provider });
  const config = { ...loaded, models: { ...loaded.models, labeller: { [provider]: model } } };
  const providers = await createProviders(config);
  const cache = config.cache.enabled ? openCache(config.cache.dir) : null;
  try {
    const call = createCallPath({ config, providers, cache, runId: 'label', onCall: () => {} }).forCell({
      cellId: `label/${o.caseId}`,
      caseId: o.caseId,
      rep: 0,
      aliases: { source: 'labeller', receiver: 'labeller' },
      made: [],
    });
    return await use((r) => call('source', r));
  } catch (err) {
    throw labellerFailure(err, o.spec);
  } finally {
    cache?.close();
    await Promise.all(Object.values(providers).map((p) => p.close?.()));
  }
}

/**
 * A labeller call that failed for good (retries spent, a rejected key, a record off its schema) is
 * one line and exit 2, like bad input: the user asked for that model, so the deterministic proposals
 * alone are not written in its place.
 */
function labellerFailure(err: unknown, spec: string): unknown {
  if (err instanceof ProviderError)
    return new InputError(
      'labeller_failed',
      `--labeller ${spec}: ${err.message}${err.baseURL ? ` (base URL: ${err.baseURL})` : ''}; nothing was written`,
      { cause: err },
    );
  if (err instanceof HarnessError && (err.code === 'labeller_invalid' || err.code === 'classify_failed'))
    return new InputError('labeller_failed', `${err.message}; nothing was written`, { cause: err });
  return err;
}

/** What the agent wrote, message by message (labels are the agent's statements, not tool output). */
function agentText(sources: readonly Transcript[]): string {
  const parts: string[] = [];
  sources.forEach((t, s) =>
    t.messages.forEach((m, i) => {
      if (m.text)
        parts.push(`[${sources.length > 1 ? `source ${s + 1}, ` : ''}${m.role} message ${i}]\n${m.text}`);
    }),
  );
  return parts.join('\n\n').slice(0, 400_000);
}

function accepted(input: unknown, sources: readonly Transcript[], spec: string): Assertion[] {
  if (!validate(input)) {
    throw new HarnessError(
      'labeller_invalid',
      `--labeller ${spec}: propose_assertions input does not match its schema: ${validate.errors?.map((e) => `${e.instancePath} ${e.message}`).join('; ')}`,
    );
  }
  const said = sources.flatMap((t) =>
    t.messages.filter((m) => m.role === 'assistant' && m.text).map((m) => m.text!),
  );
  const text = said.join('\n');
  const out: Assertion[] = [];
  for (const a of (input as { assertions: Assertion[] }).assertions) {
    if (!text.includes(a.statement)) continue;
    const index = indexText(a.statement);
    const cues =
      a.cues.length > 0 && matchClaim(index, { cues: a.cues }).present ? a.cues : contentCues(a.claim);
    if (cues.length === 0) continue;
    out.push({
      id: `m${out.length + 1}`,
      kind: a.kind,
      statement: a.statement,
      claim: a.claim || a.statement,
      cues,
      ...(a.kind !== 'confident' && a.qualifierCues?.length ? { qualifierCues: a.qualifierCues } : {}),
      ...(a.location ? { location: a.location } : {}),
      status: 'proposed',
    });
  }
  return out;
}
