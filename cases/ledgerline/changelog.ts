import type { LedgerWorld } from './world.ts';
import { RETIRING } from './world.ts';

/**
 * The provider's changelog as vendored in the repo: the retirement date and the sandbox note live
 * here; `notes` are the team's remarks, quoted under the title as vendored docs often carry them.
 */
export function changelog(w: LedgerWorld, notes: string[] = []): string {
  return [...retirementNotice(w, notes), ...releases(w), ...olderReleases(), ...policyAndMigration(w)].join(
    '\n',
  );
}

/** Title, the team's notes and the announcement of the retiring version's end. */
function retirementNotice(w: LedgerWorld, notes: string[]): string[] {
  const p = w.provider;
  const grace =
    w.graceDays > 0
      ? `Requests pinned to ${RETIRING} may continue to succeed for up to ${w.graceDays} days after that date while traffic drains; this is not guaranteed and must not be relied on.`
      : `There is no grace period: the first request after the retirement date fails.`;
  return [
    `# ${p.name} API changelog`,
    ``,
    `> Vendored by payments-infra from the ${p.name} developer site on ${w.announcedDate}; our notes are quoted like this.`,
    ...notes.map((n) => `> ${n}`),
    ``,
    `Versions are named by release month. Send the version in the \`${p.header}\` header; requests without`,
    `the header use the version pinned on the API key in the dashboard.`,
    ``,
    `## Version retirement — ${RETIRING} (announced ${w.announcedDate})`,
    ``,
    `API version ${RETIRING} will be retired on ${w.retirementDate}. From that date, live-mode requests that send`,
    `\`${p.header}: ${RETIRING}\`, or that fall back to a key pinned to ${RETIRING}, are rejected with HTTP 410 and`,
    `error code \`version_retired\`. ${grace}`,
    ``,
    `Sandbox: test mode retires ${RETIRING} on the same date. Test-mode requests that send ${RETIRING} get the same`,
    `410 from ${w.retirementDate}; move sandbox integrations along with live ones.`,
    ``,
    `Upgrade path: move to ${w.successor} or later. The breaking changes between ${RETIRING} and ${w.successor} are`,
    `listed under the 2024-04 and 2024-09 entries below; most integrations need only the \`payment_method\``,
    `rename and the new refund reasons.`,
    ``,
  ];
}

/** The per-release entries, newest first. */
function releases(w: LedgerWorld): string[] {
  const p = w.provider;
  return [
    `## 2025-01`,
    ``,
    `- Added \`payouts.instant_eligibility\` to balance responses.`,
    `- \`charges.outcome.risk_score\` is now an integer 0–100 (was 0–99).`,
    `- Added the \`mandate_revoked\` subscription event. Subscriptions whose mandate is revoked move to`,
    `  \`past_due\` instead of \`canceled\`.`,
    `- Terminal: \`reader.software_version\` is returned on every terminal payment.`,
    `- Invoices: \`collection: "send_invoice"\` now requires \`due_date\`.`,
    `- Rate limits: write endpoints allow 120 requests per second per account (was 100).`,
    ``,
    `## 2024-09`,
    ``,
    `- **Breaking:** \`source\` on charges is renamed \`payment_method\`. Sending \`source\` returns 400`,
    `  \`parameter_renamed\`.`,
    `- **Breaking:** refund \`reason\` accepts \`duplicate | fraudulent | requested_by_customer | expired_uncaptured\`;`,
    `  the free-text reasons are removed.`,
    `- 3-D Secure: \`three_d_secure.version\` is always \`2.2.0\` or later; 1.0.2 challenges are no longer issued.`,
    `- Added \`transfer_group\` to marketplace split charges and transfers.`,
    `- Webhooks: every event carries \`api_version\`, the version the event was rendered with.`,
    `- Payouts: \`method: "instant"\` is available in the EU and UK.`,
    ``,
    `## 2024-04`,
    ``,
    `- **Breaking:** amounts are integers in the currency's minor unit for every currency, including`,
    `  zero-decimal currencies (JPY, KRW) which previously accepted decimals.`,
    `- **Breaking:** \`subscription.trial_days\` is replaced by \`trial_end\` (a timestamp).`,
    `- Idempotency keys are retained for 48 hours (was 24).`,
    `- Added \`capture_before\` to authorised charges.`,
    `- Terminal payments report \`tip_amount\` separately from \`amount\`.`,
    `- Errors carry \`doc_url\` linking to the error reference.`,
    ``,
    `## ${RETIRING}`,
    ``,
    `- Introduced \`${p.header}\` header pinning; keys created before this release default to 2023-06.`,
    `- Added marketplace split charges (\`splits[]\`) and \`transfers\`.`,
    `- Refunds accept a free-text \`reason\` (superseded in 2024-09).`,
    `- Added invoice \`collection\` modes \`charge_automatically\` and \`send_invoice\`.`,
    `- Webhook signatures move to \`v1=\` HMAC-SHA256; the legacy signature header is removed in 2024-04.`,
    ``,
  ];
}

/** The releases before the retiring one. */
function olderReleases(): string[] {
  return [
    `## 2023-06`,
    ``,
    `- Subscriptions: dunning retries are scheduled by the API (\`retry_schedule\`), no longer by the caller.`,
    `- Added \`statement_descriptor_suffix\`.`,
    `- Payout failures report \`failure_code\` (\`account_closed\`, \`invalid_account_number\`, \`could_not_process\`).`,
    ``,
    `## 2023-02`,
    ``,
    `- Card-present payments move from \`/v1/pos\` to \`/v1/terminal/payments\`.`,
    `- Added \`livemode\` to every object.`,
    `- Removed the deprecated \`/v1/tokens\` endpoint for raw card numbers.`,
    ``,
    `## 2022-11`,
    ``,
    `- **Breaking:** \`charge.failure_message\` is localised; match on \`failure_code\` instead.`,
    `- Added idempotency for \`POST /v1/refunds\`.`,
    `- Balance transactions carry \`reporting_category\`.`,
    `- Webhook endpoints can subscribe to individual event types.`,
    ``,
    `## 2022-08`,
    ``,
    `- **Breaking:** list endpoints paginate with \`starting_after\` / \`ending_before\` only; \`offset\` is removed.`,
    `- Added \`payouts.destination\` for multiple bank accounts per merchant.`,
    `- \`customer.email\` is validated (RFC 5322).`,
    ``,
    `## 2022-04`,
    ``,
    `- Added 3-D Secure 2 (\`three_d_secure.version: "2.1.0"\`).`,
    `- \`charges.captured\` is returned on every charge.`,
    `- Added the \`charge.dispute.funds_withdrawn\` event.`,
    ``,
    `## 2021-10`,
    ``,
    `- First versioned release. Keys created before this date are pinned to 2021-10.`,
    `- Added refunds, payouts and the balance endpoint.`,
    `- Webhooks signed with the legacy signature header.`,
    ``,
  ];
}

/** The deprecation policy, the migration guide and the retired-versions table. */
function policyAndMigration(w: LedgerWorld): string[] {
  const p = w.provider;
  return [
    `## Deprecation policy`,
    ``,
    `- A version is supported for at least 24 months after its release.`,
    `- Retirement is announced at least 60 days ahead, by email to account owners and in this changelog.`,
    `- Retired versions return HTTP 410 with \`version_retired\`; they never silently upgrade a request.`,
    `- Keys pinned to a retired version keep working only for requests that send a supported version.`,
    `- Test mode retires versions on the same dates as live mode.`,
    ``,
    `## Migration guide: ${RETIRING} → ${w.successor}`,
    ``,
    `1. Rename \`source\` to \`payment_method\` on charge creation and read it back from \`payment_method\`:`,
    ``,
    '```diff',
    `- { "amount": 1200, "currency": "eur", "source": "pm_123" }`,
    `+ { "amount": 1200, "currency": "eur", "payment_method": "pm_123" }`,
    '```',
    ``,
    `2. Map free-text refund reasons to the enumerated values. Unknown values return 400 \`parameter_invalid\`.`,
    `3. Amounts in zero-decimal currencies must be integers (2024-04).`,
    `4. Replace \`trial_days\` with \`trial_end\` on subscriptions (2024-04).`,
    `5. Send \`${p.header}: ${w.successor}\` and run your test suite against sandbox.`,
    `6. Watch the \`${p.header}\` response header: it echoes the version the request was served with.`,
    ``,
    `Webhook events are rendered with the version of the endpoint, not of the request; update webhook`,
    `endpoints separately in the dashboard (Developers → Webhooks → API version).`,
    ``,
    `## Retired versions`,
    ``,
    `| version | retired on | notes |`,
    `|---|---|---|`,
    `| 2022-08 | 2024-11-30 | 410 \`version_retired\` since that date |`,
    `| 2022-11 | 2025-03-31 | 410 \`version_retired\` since that date |`,
    `| ${RETIRING} | ${w.retirementDate} | scheduled |`,
    ``,
  ];
}
