import type { LedgerWorld, Merchant } from './world.ts';
import type { SessionBuilder } from '../lib/session.ts';
import type { Random } from '../lib/random.ts';
import { renderTable } from '../lib/text.ts';

/** Two of the parent's earlier escalations (earlier.ts): a payout delay and a lost dispute, with their tool results. */

export function payoutDelay(s: SessionBuilder, w: LedgerWorld, r: Random, m: Merchant): void {
  const ticket = w.ticket.number - r.int(300, 900);
  s.user(
    `Ticket #${ticket}: ${m.name} (${m.id}) says payouts from the last three business days have not arrived. Can you find out why before they call again?`,
    'tier2',
  );
  const rows = payoutRows(r, m);
  s.act(
    `Looking at the ticket and ${m.name}'s recent payouts.`,
    {
      name: 'get_ticket',
      input: { id: ticket },
      result: payoutTicket(ticket, m),
    },
    {
      name: 'get_payouts',
      input: { merchant_id: m.id, limit: 30 },
      result: renderTable(
        ['payout_id', 'created', 'amount', 'currency', 'status', 'method', 'arrived'],
        rows,
      ),
    },
  );
  s.act(
    `Three standard payouts are still in_transit while older ones arrived in two days. Checking ${w.provider.name}'s status page and the payout timing article.`,
    {
      name: 'get_provider_status',
      input: { provider: w.provider.slug, days: 7 },
      result: providerStatus(w, m),
    },
    {
      name: 'read_kb_article',
      input: { id: 'KB-1733' },
      result: payoutTimingArticle(),
    },
  );
  s.say(
    `Answer for ticket #${ticket}: the three missing payouts were caught in ${w.provider.name}'s ${m.region} clearing incident this week (status page: batch rejected by a clearing partner, resubmitted, now resolved). Per the provider, resubmitted payouts arrive within 2 business days of resubmission, so ${m.name} should see them by the end of the week. Nothing is wrong with their account or bank details. Suggested reply: apologise, explain the provider incident, give the 2-business-day window, and offer to confirm arrival on Friday morning.`,
  );
}

export function lostDispute(s: SessionBuilder, w: LedgerWorld, r: Random, m: Merchant): void {
  const ticket = w.ticket.number - r.int(50, 250);
  const dispute = `dp_${r.hex(16)}`;
  const due = `2025-0${r.int(6, 9)}-${String(r.int(10, 20))}`;
  s.user(
    `Next one, ticket #${ticket}: ${m.name} (${m.id}) lost a chargeback and says they submitted evidence on time. They want to know what happened.`,
    'tier2',
  );
  s.act(
    'Pulling the dispute and its timeline.',
    {
      name: 'get_dispute',
      input: { id: dispute },
      result: disputeRecord(r, m, dispute, due),
    },
    {
      name: 'get_dispute_timeline',
      input: { id: dispute },
      result: disputeTimeline(due),
    },
  );
  s.act(
    'Evidence was on time; the issuer rejected it on content. Checking the disputes guidance before answering.',
    {
      name: 'read_kb_article',
      input: { id: 'KB-1210' },
      result: disputesArticle(),
    },
  );
  s.say(
    `Answer for ticket #${ticket}: the evidence was submitted on time (${due} 23:58 UTC, two minutes before the deadline). The issuer ruled against ${m.name} because the tracking showed delivery to a different postcode than the order's billing and shipping address — a content problem, not a timing one. The dispute cannot be re-opened through us. Suggested reply: quote the issuer's reason, point them to the evidence checklist (KB-1211), and suggest contacting the cardholder directly.`,
  );
}

/** 30 recent payouts, the last three still in transit. */
function payoutRows(r: Random, m: Merchant) {
  return Array.from({ length: 30 }, (_, i) => {
    const late = i < 3;
    return [
      `po_${r.hex(14)}`,
      `2025-0${r.int(6, 9)}-${String(Math.max(1, 28 - i)).padStart(2, '0')}`,
      r.int(1200, 68000) / 100,
      m.currency,
      late ? 'in_transit' : 'paid',
      late ? 'standard' : r.pick(['standard', 'standard', 'instant']),
      late ? '' : `2025-0${r.int(6, 9)}-${String(Math.min(28, 30 - i)).padStart(2, '0')}`,
    ];
  });
}

/** The payouts ticket's thread. */
function payoutTicket(ticket: number, m: Merchant): string {
  return [
    `Ticket #${ticket} — "Payouts missing"`,
    `Merchant: ${m.name} (${m.id}) · Region: ${m.region}`,
    '',
    `--- Message 1 · merchant`,
    `Our last three payouts show as "in transit" in your dashboard but nothing has reached our bank. Our bank says there are no pending credits. We have payroll on Friday.`,
    '',
    `--- Internal note · Tier 1`,
    `Bank details unchanged since 2024. No holds on the account. Escalating.`,
  ].join('\n');
}

/** The provider's status page: a resolved payout incident in the merchant's region. */
function providerStatus(w: LedgerWorld, m: Merchant): string {
  return [
    `${w.provider.name} status — last 7 days`,
    '',
    `● Resolved · Payouts delayed for some ${m.region} bank accounts`,
    `  Identified: a clearing partner rejected a batch file; affected payouts are being resubmitted.`,
    `  Update: resubmitted payouts will arrive within 2 business days of resubmission.`,
    `  Resolved: all delayed payouts resubmitted.`,
    '',
    `● Resolved · Elevated API latency (charges), 14 minutes`,
    '',
    `● Operational · Webhooks, Dashboard, Terminal`,
  ].join('\n');
}

/** KB-1733, payout timing. */
function payoutTimingArticle(): string {
  return [
    'KB-1733 · Payout timing',
    '',
    'Standard payouts arrive in 2 business days in most regions; instant payouts within 30 minutes where supported.',
    'A payout shown as in_transit has left the provider; the receiving bank may take until end of day to credit it.',
    'If a provider incident delays payouts, do not promise a date until the provider confirms resubmission.',
    'Escalate to Payments Platform only if a payout is in_transit for more than 5 business days with no incident.',
  ].join('\n');
}

/** The lost dispute's timeline: evidence on time, rejected on content. */
function disputeTimeline(due: string): string {
  return [
    'created → needs_response',
    `evidence uploaded: shipping_label.pdf (${due} 23:41 UTC)`,
    `evidence uploaded: tracking_screenshot.png (${due} 23:57 UTC)`,
    `evidence submitted (${due} 23:58 UTC)`,
    'forwarded to issuer',
    'issuer decision: lost — "tracking shows delivery to a different postcode than the billing and shipping address on the order"',
  ].join('\n');
}

/** KB-1210, what wins and loses a dispute. */
function disputesArticle(): string {
  return [
    'KB-1210 · Disputes: what wins and what loses',
    '',
    '- Product not received: tracking must show delivery to the shipping address on the order. A mismatch loses almost always.',
    '- Submitting a minute before the deadline is on time; the issuer does not penalise late-but-valid submissions.',
    '- Lost disputes cannot be re-opened through us; the merchant can contact the cardholder directly.',
    "- Support should explain the issuer's reason verbatim and point to the evidence checklist (KB-1211).",
  ].join('\n');
}

/** The dispute as the API returns it (draws its amount, then its creation date). */
function disputeRecord(r: Random, m: Merchant, dispute: string, due: string): string {
  return JSON.stringify(
    {
      id: dispute,
      merchant_id: m.id,
      amount: r.int(4000, 40000),
      currency: m.currency,
      reason: 'product_not_received',
      status: 'lost',
      evidence_due_by: `${due}T23:59:59Z`,
      evidence: {
        submitted: true,
        submitted_at: `${due}T23:58:41Z`,
        files: ['shipping_label.pdf', 'tracking_screenshot.png'],
        uncategorized_text: 'Customer received the parcel, see tracking.',
      },
      network_reason_code: '13.1',
      created: `2025-0${r.int(5, 8)}-0${r.int(1, 9)}T11:04:00Z`,
    },
    null,
    2,
  );
}
