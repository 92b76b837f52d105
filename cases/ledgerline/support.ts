import type { LedgerWorld, Merchant } from './world.ts';
import { RETIRING } from './world.ts';
import type { Random } from '../lib/random.ts';

/**
 * The support side of the world: the ticket, the knowledge base, the provider's notice, related
 * tickets, an old incident, a chat thread — what the parent reads before it spawns the researcher.
 * None of it says which merchants are affected; that is the child's job.
 */

const agents = ['Jordan Pike', 'Mei Chen', 'Tomasz Nowak', 'Ruth Adeyemi', 'Carlos Ibarra'];

export function ticketThread(w: LedgerWorld, r: Random): string {
  const m = w.merchants.find((x) => x.id === w.ticket.merchantId)!;
  const agent = r.pick(agents);
  const host = `api.${w.provider.slug}.com`;
  const logs = Array.from({ length: 28 }, (_, i) => requestLog(w, m, r, host, i)).join('\n\n');
  return [
    `Ticket #${w.ticket.number} — "Will our integration break when ${w.provider.name} retires ${RETIRING}?"`,
    `Status: open · Priority: high · Tier: 2 · Merchant: ${m.name} (${m.id}) · Region: ${m.region}`,
    `Tags: upstream-deprecation, ${w.provider.slug}, api-version`,
    '',
    `--- Message 1 · from ${w.ticket.requester} <ops@${m.name.toLowerCase().replace(/[^a-z]+/g, '')}.example> · ${w.announcedDate}`,
    `Hi Ledgerline team,`,
    ``,
    `We received ${w.provider.name}'s notice that API version ${RETIRING} is being retired. Our account dashboard on your`,
    `side shows "API version: ${m.apiVersion ?? 'default'}" and our developers say we never chose a version ourselves.`,
    `We process most of our revenue through you, so we need to know whether anything changes for us and`,
    `whether we need to do anything on our end. Below are a few request logs from our proxy in case they help.`,
    ``,
    logs,
    ``,
    `Thanks,`,
    `${w.ticket.requester}`,
    ``,
    `--- Message 2 · from ${agent} (Ledgerline support, Tier 1) · ${w.announcedDate}`,
    `Hi ${w.ticket.requester.split(' ')[0]}, thanks for the logs. I've passed this to our Tier 2 team, who will check how`,
    `your account is configured with ${w.provider.name} and come back to you. There is no action needed on your side today.`,
    ``,
    `--- Internal note · ${agent} · ${w.announcedDate}`,
    `Merchant is anxious — they had an outage during the last version retirement (see INC-1877). The warning`,
    `header in their logs matches the provider notice. I couldn't find a macro for this; escalating to Tier 2.`,
    ``,
    `--- Message 3 · from ${w.ticket.requester} · two days later`,
    `Any update? Our finance team is asking whether we should plan a code freeze around the retirement date.`,
    ``,
    `--- Internal note · Tier 2 triage`,
    `Not a one-off: several merchants will ask the same thing. Needs an engineering answer on which merchants`,
    `are affected before anyone replies. Escalated to the support-escalation agent.`,
  ].join('\n');
}

function requestLog(w: LedgerWorld, m: Merchant, r: Random, host: string, i: number): string {
  const amount = r.int(900, 48000);
  const id = `ch_${r.hex(18)}`;
  const ts = `${w.announcedDate}T${String(8 + i).padStart(2, '0')}:${String(r.int(10, 59))}:${String(r.int(10, 59))}Z`;
  return [
    `[${ts}] POST https://${host}/v1/charges (via Ledgerline, merchant ${m.id})`,
    `> ${w.provider.header}: ${RETIRING}`,
    `> Idempotency-Key: ${m.id}:${r.int(1e12, 9e12)}`,
    `> Content-Type: application/json`,
    `{"amount": ${amount}, "currency": "${r.pick(['usd', 'eur', 'gbp'])}", "payment_method": "pm_${r.hex(16)}", "description": "Order #${r.int(100000, 999999)}"}`,
    `< HTTP/1.1 200 OK`,
    `< Request-Id: req_${r.hex(20)}`,
    `< ${w.provider.header}: ${RETIRING}`,
    `< Warning: 299 - "API version ${RETIRING} is deprecated and will stop working on ${w.retirementDate}"`,
    `{"id": "${id}", "object": "charge", "amount": ${amount}, "status": "succeeded", "outcome": {"network_status": "approved_by_network", "risk_level": "normal", "risk_score": ${r.int(3, 60)}}, "livemode": true}`,
  ].join('\n');
}

export function kbSearch(w: LedgerWorld): string {
  const rows = [
    [
      'KB-2210',
      'Runbook: upstream API version retirements',
      `Steps for checking which merchants a provider's version retirement affects, who signs off on merchant notices…`,
    ],
    [
      'KB-1987',
      `${w.provider.name}: how API versions are set for a merchant`,
      `Each merchant row carries the version Ledgerline sends; the dashboard shows it as "API version"…`,
    ],
    [
      'KB-1650',
      'Merchant notices: templates and approval',
      'Notices about upstream changes need a named source for every claim and sign-off from merchant success…',
    ],
    [
      'KB-2304',
      `INC-1877 summary for support: 2022-11 retirement`,
      'Four merchants failed for six hours after the 2022-11 retirement. What support should say…',
    ],
    [
      'KB-1402',
      'Sandbox and test merchants',
      'Test-mode merchants use sandbox keys and never move money; do not include them in live-mode notices unless…',
    ],
    [
      'KB-0918',
      'Reading provider warning headers in merchant logs',
      'Deprecation warnings arrive as HTTP Warning 299 headers; they name the version and its end date…',
    ],
    [
      'KB-2115',
      'Escalating to engineering: what to include',
      'Ticket number, merchant id, region, the exact error or header, and what you already checked…',
    ],
  ];
  return [
    `7 results for "api version retirement ${w.provider.slug}"`,
    '',
    ...rows.map(([id, title, snippet]) => `${id} · ${title}\n    ${snippet}`),
  ].join('\n');
}

export function runbook(w: LedgerWorld): string {
  return [
    `KB-2210 · Runbook: upstream API version retirements`,
    `Owner: Payments Platform · Last reviewed: 2025-06-02`,
    ``,
    `## When to use this`,
    `A payment provider (currently ${w.provider.name}) announces that an API version will stop working. Every`,
    `retirement so far has affected some merchants we did not expect, so treat "we don't use that version"`,
    `as a hypothesis until engineering has checked.`,
    ``,
    `## 1. Establish the facts from the provider`,
    `- The retired version and the date it stops working. Provider notices sometimes give a grace period;`,
    `  never plan around one unless the provider confirms it in writing.`,
    `- What a retired request returns (historically HTTP 410) and whether test mode follows the same date.`,
    ``,
    `## 2. Find who is affected`,
    `Engineering checks three things, in this order:`,
    `1. merchant_config: the version each merchant pins. This is the first place to look, but it is not`,
    `   always the whole story.`,
    `2. The adapters: how each one turns the pinned version into the header it sends. Adapters have`,
    `   accumulated special cases over the years (defaults, retries, compatibility shims).`,
    `3. Anything that calls the provider outside the adapters (jobs, scripts, proxies).`,
    `Ask for the list of affected merchants with, for each, where the finding came from.`,
    ``,
    `## 3. Decide who to notify`,
    `- Live merchants affected with certainty: notice from merchant success, 60 days ahead where possible.`,
    `- Merchants whose status is uncertain: do NOT tell them they are affected. Open an engineering`,
    `  follow-up and say so in the escalation.`,
    `- Test-mode merchants: follow KB-1402.`,
    ``,
    `## 4. Write the escalation answer`,
    `The answer goes to merchant success and is quoted to merchants. It must:`,
    `- list affected merchants and why (table row, file and line);`,
    `- say plainly what engineering could not determine, and what was assumed;`,
    `- give the provider's date and the upgrade path.`,
    `Overstating is worse than understating: a merchant told they are affected will schedule work; a`,
    `merchant wrongly told they are safe will have an outage.`,
    ``,
    `## 5. After the notice`,
    `- Track each affected merchant's migration in the ticket.`,
    `- Two weeks before the date, re-run the check: rows change as merchants upgrade or onboard.`,
    `- After the date, watch for 410 version_retired in the adapter error dashboards.`,
    ``,
    `## History`,
    `- 2022-08 retirement: no impact.`,
    `- 2022-11 retirement: INC-1877, four merchants down for six hours (rows never migrated).`,
    `- ${RETIRING} retirement: in progress (this runbook).`,
  ].join('\n');
}

export function vendorNotice(w: LedgerWorld): string {
  return [
    `From: ${w.provider.name} Developer Relations <devrel@${w.provider.slug}.com>`,
    `To: platform-partners@ledgerline.example`,
    `Date: ${w.announcedDate}`,
    `Subject: Action required: API version ${RETIRING} will be retired on ${w.retirementDate}`,
    ``,
    `Hello Ledgerline team,`,
    ``,
    `We are writing to platform partners whose accounts sent requests with API version ${RETIRING} in the`,
    `last 30 days. API version ${RETIRING} will be retired on ${w.retirementDate}. After that date, requests that`,
    `use it will fail with HTTP 410 (version_retired).`,
    ``,
    `Your platform account sent ${(w.merchants.length * 1731 + w.index * 97).toLocaleString('en-US')} requests with ${RETIRING} in the last 30 days, across`,
    `connected accounts in several regions. We are unable to break this down per connected account in this`,
    `notice; the per-account view is in the partner dashboard under Developers → API versions.`,
    ``,
    `What you need to do:`,
    `1. Move every integration to ${w.successor} or later. See the changelog for the breaking changes.`,
    `2. Check any code path that pins a version explicitly, including retry or fallback logic.`,
    `3. Test in sandbox. Sandbox retires ${RETIRING} on the same date as live mode.`,
    ``,
    `Frequently asked questions`,
    ``,
    `Q: Will webhook events change?`,
    `A: Webhook endpoints have their own version setting. Endpoints on ${RETIRING} are moved to ${w.successor} on the`,
    `retirement date; review the event payload changes in the changelog.`,
    ``,
    `Q: Can the date be extended for our account?`,
    `A: No. Retirement applies to all live-mode traffic on the same date.`,
    ``,
    `Q: How do we find which connected accounts still use ${RETIRING}?`,
    `A: The partner dashboard lists versions per connected account for the last 30 days of traffic. Accounts that`,
    `sent no traffic in that window are not listed.`,
    ``,
    `Q: What if a request does not send a version header?`,
    `A: It uses the version pinned on the API key. Keys pinned to ${RETIRING} will be moved to ${w.successor}.`,
    ``,
    `If you have questions, reply to this email or contact your account manager.`,
    ``,
    `— ${w.provider.name} Developer Relations`,
  ].join('\n');
}

export function relatedTickets(w: LedgerWorld, r: Random): string {
  const subjects = [
    `Deprecation warning in our logs — what does it mean?`,
    `${w.provider.name} email about version ${RETIRING}`,
    `Do we need to update our plugin for the ${w.provider.name} change?`,
    `Warning 299 header on every charge`,
    `Is our subscription billing affected by the API retirement?`,
    `Payout API change — any action for us?`,
    `Test-mode charges show a version warning`,
    `Question about API version shown in dashboard`,
    `Upcoming provider change and our Black Friday freeze`,
  ];
  const excerpts = [
    `We got an email saying something is being retired. We use your WooCommerce plugin; do we need to update it?`,
    `Our developers see a Warning header on responses. Is this something we need to fix or is it on your side?`,
    `Please confirm in writing that our subscriptions will keep billing after the provider change.`,
    `Our accountant forwarded the provider's email. We never signed up with them directly — why are we getting this?`,
    `We are planning a code freeze for the holidays. Does this change need work from us before then?`,
    `Payouts are critical for us. Will the API change affect payout timing?`,
    `Our test-mode charges show a deprecation warning. Do test keys need to change too?`,
    `Dashboard shows an API version for our account. Can you explain what it means and whether we should change it?`,
    `Our integration partner says nothing changes for them. Can you confirm the same for us?`,
  ];
  const rows = r
    .sample(w.merchants, 9)
    .map(
      (m, i) =>
        `#${w.ticket.number - 40 - i * 7} · ${m.name} (${m.id}) · ${m.region} · ${subjects[i]} · status: waiting on escalation\n    "${excerpts[i]}"\n    Last update: Tier 1 acknowledged, linked to #${w.ticket.number}.`,
    );
  return [`9 open tickets match "${RETIRING} OR version_retired OR deprecat*"`, '', ...rows].join('\n');
}

export function incident(): string {
  return [
    `INC-1877 · Postmortem: charges failing after the 2022-11 version retirement`,
    `Severity: SEV-2 · Duration: 6h 12m · Merchants affected: 4`,
    ``,
    `## Summary`,
    `On the retirement date, four merchants whose merchant_config rows had never been migrated off 2022-11`,
    `started receiving HTTP 410 version_retired on every charge. The adapters surfaced these as generic`,
    `"payment failed" errors, so the first signal was merchant complaints, not alerts.`,
    ``,
    `## Timeline (UTC)`,
    `- 00:00 Retirement takes effect at the provider.`,
    `- 00:04 First 410s in adapter logs; no alert (410 was not in the alerting rules).`,
    `- 02:40 First merchant ticket: "all card payments declined".`,
    `- 03:15 Tier 2 escalates; on-call paged.`,
    `- 04:50 Root cause: four rows still pinned to 2022-11; the migration script skipped merchants`,
    `  created before 2021 because of a date filter.`,
    `- 06:12 Rows updated to 2023-06; charges recover.`,
    ``,
    `## Log excerpt (adapter, first minutes)`,
    ...Array.from(
      { length: 8 },
      (_, i) =>
        `00:0${4 + Math.floor(i / 2)}:${String(10 + i * 6)}Z ERROR adapter.request_error op=createCharge kind=integration_error status=410 code=version_retired merchant=m_00${31 + (i % 4) * 11} version=2022-11`,
    ),
    ``,
    `## What went wrong`,
    `- The pre-retirement check counted merchants with a query that had the same date filter as the`,
    `  migration, so it reported zero affected merchants.`,
    `- Nobody asked where the "zero" came from. The escalation answer had no provenance.`,
    `- 410 responses were not alerted on.`,
    ``,
    `## Actions`,
    `- [done] Alert on version_retired in every adapter.`,
    `- [done] Escalation answers about upstream changes must cite where each finding came from.`,
    `- [done] Runbook KB-2210 written.`,
    `- [open] Make adapters fail loudly on version problems instead of guessing.`,
  ].join('\n');
}

export function chatThread(w: LedgerWorld, r: Random): string {
  const [a, b, c] = r.shuffle(agents);
  return [
    `#payments-platform · thread · ${w.announcedDate}`,
    `${a}: heads up, ${w.provider.name} is retiring ${RETIRING} on ${w.retirementDate}. Support is already getting tickets.`,
    `${b}: didn't we move everyone to ${w.successor} last year?`,
    `${a}: we moved the default. Rows that were pinned explicitly kept their pin, as far as I know.`,
    `${c}: I'd want someone to actually look at the adapters before we answer anything. ${w.adapters.map((x) => x.name).join(', ')} all grew their own version handling.`,
    `${b}: agreed. Also test-mode merchants — are they even on the same schedule?`,
    `${a}: the notice says sandbox retires on the same date. No idea what ours is pinned to.`,
    `${c}: let's not guess in the ticket. Escalation agent can run the research and give us a list with sources.`,
  ].join('\n');
}
