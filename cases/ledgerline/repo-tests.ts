import type { LedgerWorld } from './world.ts';
import { RETIRING, VERSIONS } from './world.ts';
import type { Random } from '../lib/random.ts';

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The repository's adapter tests and their recorded fixtures (repo.ts puts them in place). */

export function adapterTest(w: LedgerWorld, name: string, r: Random): string {
  const cls = `${pascal(name)}Adapter`;
  const cases = [RETIRING, w.successor].map((v) => [
    `  it('sends the pinned version ${v}', async () => {`,
    `    const { client, calls } = recordingClient('test/fixtures/${w.provider.slug}/${name}-${v}.json');`,
    `    const adapter = new ${cls}({ client });`,
    `    await adapter.${firstMethod(name)}(merchant({ apiVersion: '${v}' }), {});`,
    `    expect(calls[0].opts.version).toBe('${v}');`,
    `  });`,
    ``,
  ]);
  return [
    `import { describe, it, expect } from 'vitest';`,
    `import { ${cls} } from '../../adapters/${name}';`,
    `import { recordingClient, merchant } from '../helpers';`,
    ``,
    `describe('${cls}', () => {`,
    ...cases.flat(),
    `  it('rejects an unknown version', async () => {`,
    `    const { client } = recordingClient();`,
    `    const adapter = new ${cls}({ client });`,
    `    await expect(adapter.${firstMethod(name)}(merchant({ apiVersion: '2019-0${r.int(1, 9)}' }), {})).rejects.toThrow();`,
    `  });`,
    `});`,
    ``,
  ].join('\n');
}

function firstMethod(name: string): string {
  return (
    {
      checkout: 'createCharge',
      subscriptions: 'createSubscription',
      payouts: 'createPayout',
      marketplace: 'createSplitCharge',
      terminal: 'createTerminalPayment',
      invoicing: 'createInvoice',
    }[name] ?? 'request'
  );
}

export function fixture(w: LedgerWorld, name: string, version: string, r: Random): string {
  const id = `${name.slice(0, 3)}_${r.hex(14)}`;
  return (
    JSON.stringify(
      {
        request: {
          method: 'POST',
          path: `/v1/${name === 'payouts' ? 'payouts' : 'charges'}`,
          headers: { [w.provider.header]: version, 'idempotency-key': `m_0000:${r.int(1e12, 9e12)}` },
        },
        response: {
          status: 200,
          headers: { [w.provider.header]: version, 'request-id': `req_${r.hex(20)}` },
          body: {
            id,
            object: name === 'payouts' ? 'payout' : 'charge',
            amount: r.int(500, 90000),
            currency: r.pick(['usd', 'eur', 'gbp']),
            status: 'succeeded',
            api_version: version,
            livemode: false,
          },
        },
      },
      null,
      2,
    ) + '\n'
  );
}

export function errorFixture(w: LedgerWorld, name: string, r: Random): string {
  return (
    JSON.stringify(
      {
        note: `recorded against sandbox with ${w.provider.header}: ${RETIRING} forced to a retired test version`,
        request: {
          method: 'POST',
          path: `/v1/${name === 'payouts' ? 'payouts' : 'charges'}`,
          headers: { [w.provider.header]: RETIRING },
        },
        response: {
          status: 410,
          headers: { 'request-id': `req_${r.hex(20)}` },
          body: {
            error: {
              code: 'version_retired',
              message: `API version ${RETIRING} has been retired.`,
              doc_url: `https://docs.${w.provider.slug}.com/errors#version_retired`,
            },
          },
        },
      },
      null,
      2,
    ) + '\n'
  );
}
