import { describe, expect, it } from 'vitest';
import type { ModelRequest, ModelResponse, Provider, ToolCall } from '../../harness/core/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { createProviders } from '../../harness/providers/index.ts';
import { createCallPath } from '../../harness/calls/call-path.ts';
import { executeCell } from '../../harness/runner/execute-cell.ts';
import { getStrategy } from '../../strategies/index.ts';
import { resolveParams } from '../../strategies/define.ts';
import { miniCase } from '../strategies/helpers.ts';

/**
 * The receiver's tool loop inside a cell: a handoff that serves fetch_transcript_span (the
 * structured contract's transcript_ref) lets the receiver call it, the harness runs the tool and sends
 * the result back, and the loop stops after 4 rounds. The sim answers every other call; the
 * receiver is scripted.
 */
async function cellWithReceiver(script: (req: ModelRequest, round: number) => Partial<ModelResponse>) {
  const config = resolveConfig({ cache: false, seed: 7 });
  const providers = await createProviders(config);
  const sim = providers[config.provider.receiver]!;
  const receiverRequests: ModelRequest[] = [];
  const scripted: Provider = {
    ...sim,
    generate: async (req, o) => {
      if (req.purpose !== 'answer') return sim.generate(req, o);
      receiverRequests.push(structuredClone(req)); // the loop keeps appending to its messages
      const base = await sim.generate(req, o);
      return { ...base, toolCalls: [], ...script(req, receiverRequests.length - 1) };
    },
  };
  const calls = createCallPath({
    config,
    providers: { ...providers, [config.provider.receiver]: scripted },
    cache: null,
    runId: 'receiver-tools',
    onCall: () => {},
  });
  const c = await miniCase();
  const armSpec = {
    name: 'structured-contract',
    strategy: 'structured-contract',
    models: { source: 'large', receiver: 'large' },
  };
  // Rep 1: rep 0 of this case is the seeded one whose contract fails three times (structured-contract.test.ts).
  const cell = {
    id: `mini/${c.id}/structured-contract/1`,
    suite: 'mini',
    caseId: c.id,
    arm: armSpec.name,
    rep: 1,
    case: c,
    armSpec,
    params: resolveParams(getStrategy('structured-contract'), undefined, 'test'),
    baselineArm: 'inline',
    primaryCriterion: c.criteria[0]!,
  };
  const row = await executeCell(cell, { config, calls, runId: 'receiver-tools', harnessVersion: 'test' });
  return { row, receiverRequests };
}

const spanCall = (id: string, toolCallId: string): ToolCall => ({
  id,
  name: 'fetch_transcript_span',
  input: { ref: 'transcript:deprecation-1', tool_call_id: toolCallId },
});

describe('the receiver’s tool loop', () => {
  it('runs fetch_transcript_span inside the cell and sends its result back before the answer', async () => {
    const { row, receiverRequests } = await cellWithReceiver((_req, round) =>
      round === 0
        ? { text: '', toolCalls: [spanCall('r1', 'c2')], stopReason: 'tool_use' }
        : { text: 'FALLBACK_VERSION pins 2023-10.', stopReason: 'end_turn' },
    );
    expect(row.status, row.error ?? '').toBe('ok');
    expect(receiverRequests).toHaveLength(2);
    expect(receiverRequests[0]!.tools?.map((t) => t.name)).toEqual(['fetch_transcript_span']);
    const sent = receiverRequests[1]!.messages.at(-1)!.toolResults!;
    expect(sent.map((r) => r.callId)).toEqual(['r1']);
    expect(sent[0]!.content).toContain("FALLBACK_VERSION = '2023-10'");
    expect(row.detail?.answer).toBe('FALLBACK_VERSION pins 2023-10.');
  });

  it('stops after 4 rounds of tool calls: the fifth request gets no tool run, and an answer that is still a tool call is an error row', async () => {
    const { row, receiverRequests } = await cellWithReceiver((_req, round) => ({
      text: '',
      toolCalls: [spanCall(`r${round}`, 'c1')],
      stopReason: 'tool_use',
    }));
    expect(receiverRequests).toHaveLength(5);
    for (let k = 1; k < 5; k++)
      expect(receiverRequests[k]!.messages.at(-1)!.toolResults!.map((r) => r.callId)).toEqual([`r${k - 1}`]);
    expect(row.status).toBe('error');
    expect(row.error).toMatch(/tool/);
  });
});
