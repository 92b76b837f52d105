import type { LedgerWorld, Merchant } from './world.ts';
import type { SessionBuilder } from '../lib/session.ts';
import type { Random } from '../lib/random.ts';
import { renderTable } from '../lib/text.ts';
import { lostDispute, payoutDelay } from './earlier-payout-dispute.ts';

/**
 * Earlier escalations in the same parent session (a payout delay, a lost dispute), finished before
 * the version question arrives. They are what a long-running escalation agent's window really holds.
 */
export function earlierEscalations(s: SessionBuilder, w: LedgerWorld, r: Random): void {
  const live = w.merchants.filter((m) => m.adapter !== 'sandbox' && m.id !== w.ticket.merchantId);
  payoutDelay(s, w, r, r.pick(live));
  webhookFailures(s, w, r, r.pick(live));
  lostDispute(s, w, r, r.pick(live));
  currencyChange(s, w, r, r.pick(live));
}

function currencyChange(s: SessionBuilder, w: LedgerWorld, r: Random, m: Merchant): void {
  const ticket = w.ticket.number - r.int(10, 45);
  s.user(
    `Quick one, ticket #${ticket}: ${m.name} (${m.id}) wants to switch settlement currency from ${m.currency.toUpperCase()} to EUR. Can we do it and what happens to funds in transit?`,
    'tier2',
  );
  const balance = {
    merchant_id: m.id,
    settlement_currency: m.currency,
    available: [{ amount: r.int(10000, 900000), currency: m.currency }],
    pending: [{ amount: r.int(1000, 90000), currency: m.currency }],
    in_transit_payouts: r.int(0, 3),
    reserves: { rolling_reserve_pct: r.pick([0, 5, 10]), held: r.int(0, 50000) },
    bank_accounts: [
      {
        id: `ba_${r.hex(12)}`,
        currency: m.currency,
        country: m.region === 'eu-west' ? 'IE' : 'US',
        default_for_currency: true,
      },
    ],
    last_currency_change: null,
  };
  s.act(
    'Checking their balance, bank accounts and the currency-change article.',
    { name: 'get_balance', input: { merchant_id: m.id }, result: JSON.stringify(balance, null, 2) },
    {
      name: 'read_kb_article',
      input: { id: 'KB-1321' },
      result: [
        'KB-1321 · Changing settlement currency',
        '',
        '- Needs a bank account in the new currency, verified before the switch.',
        '- Funds already pending or in transit settle in the old currency.',
        '- The switch takes effect at the next daily cut-off (00:00 UTC).',
        '- Only merchant success can make the change; support collects the request and the new bank details.',
        '- Conversion fees apply to charges in currencies other than the settlement currency.',
      ].join('\n'),
    },
  );
  s.say(
    `Answer for ticket #${ticket}: yes, but ${m.name} has no EUR bank account on file (only ${m.currency.toUpperCase()}), so they must add and verify one first. Pending and in-transit funds settle in ${m.currency.toUpperCase()}; the switch applies from the next 00:00 UTC cut-off after merchant success makes the change. Suggested reply: ask for the EUR account details and explain the cut-off and conversion fees.`,
  );
}

/** The merchant's server log: 24 signature-mismatch rejections behind their new proxy. */
function webhookServerLog(r: Random): string {
  return Array.from(
    { length: 24 },
    (_, i) =>
      `2025-09-${String(10 + Math.floor(i / 4)).padStart(2, '0')}T0${i % 10}:1${i % 6}:0${i % 9}Z [webhook] POST /ledgerline 400 - signature mismatch (header=ll-signature t=${1757000000 + i * 917},v1=${r.hex(16)}…) body_bytes=${r.int(800, 2400)} proxy=nginx/1.25`,
  ).join('\n');
}

/** Our delivery records for their endpoint: 6 delivered, then every one rejected. */
function webhookDeliveries(r: Random): (string | number)[][] {
  return Array.from({ length: 24 }, (_, i) => [
    `whd_${r.hex(12)}`,
    r.pick(['charge.succeeded', 'charge.refunded', 'payout.paid']),
    `2025-09-${String(8 + Math.floor(i / 3)).padStart(2, '0')} ${String(i % 24).padStart(2, '0')}:0${i % 10}`,
    i < 6 ? 200 : 400,
    i < 6 ? 1 : r.int(3, 8),
    i < 6 ? '' : 'signature mismatch',
  ]);
}

function webhookFailures(s: SessionBuilder, w: LedgerWorld, r: Random, m: Merchant): void {
  const ticket = w.ticket.number - r.int(260, 299);
  const endpoint = `https://hooks.${m.name.toLowerCase().replace(/[^a-z]+/g, '')}.example/ledgerline`;
  const serverLog = webhookServerLog(r);
  s.user(
    `Ticket #${ticket}: ${m.name} (${m.id}) says our webhooks have been failing signature checks since Monday. They pasted their server log.`,
    'tier2',
  );
  const deliveries = webhookDeliveries(r);
  s.act(
    'Reading the ticket with their log, and our delivery records for their endpoint.',
    {
      name: 'get_ticket',
      input: { id: ticket },
      result: [
        `Ticket #${ticket} — "Webhook signature failures"`,
        `Merchant: ${m.name} (${m.id})`,
        '',
        '--- Message 1 · merchant',
        'Since Monday every webhook from you fails our signature check. Nothing changed on our side except we moved the endpoint behind a new nginx proxy. Log below.',
        '',
        serverLog,
        '',
        '--- Internal note · Tier 1',
        'Signing secret not rotated in the last 90 days. Escalating.',
      ].join('\n'),
    },
    {
      name: 'get_webhook_deliveries',
      input: { merchant_id: m.id, endpoint, limit: 24 },
      result: renderTable(['delivery_id', 'event', 'sent_at', 'status', 'attempts', 'error'], deliveries),
    },
  );
  s.act(
    'Failures start exactly when they added the proxy. Checking our signing article for known proxy issues.',
    {
      name: 'read_kb_article',
      input: { id: 'KB-1544' },
      result: [
        'KB-1544 · Webhook signatures',
        '',
        'Ledgerline signs the raw request body. Anything that re-encodes the body before verification (proxies that decompress, re-serialise JSON, or normalise line endings) breaks the signature.',
        'Common culprits: nginx with gunzip on, API gateways that parse and re-emit JSON, frameworks that verify the parsed body instead of the raw bytes.',
        'Fix on the merchant side: verify against the raw body, or disable the transformation for the webhook route.',
        'We never change signing without rotating the secret and emailing the technical contact.',
      ].join('\n'),
    },
  );
  s.say(
    `Answer for ticket #${ticket}: the failures begin with the merchant's new nginx proxy (our deliveries succeeded until Monday, then every attempt got 400 "signature mismatch"). We have not changed signing and their secret was not rotated. KB-1544: a proxy that decompresses or re-serialises the body breaks signatures computed over the raw bytes. Suggested reply: ask them to verify against the raw body or turn off body transformation for the webhook route; failed deliveries will be retried for 3 days, so nothing is lost if they fix it this week.`,
  );
}
