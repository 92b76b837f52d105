import type { LedgerWorld, Merchant } from './world.ts';
import { RETIRING } from './world.ts';
import type { Random } from '../lib/random.ts';

/** More of what the parent reads: the merchant's account, two KB articles, a template, a past answer. */

export function accountRecord(w: LedgerWorld, m: Merchant, r: Random): string {
  const record = {
    merchant_id: m.id,
    display_name: m.name,
    status: 'active',
    region: m.region,
    created_at: `20${r.int(18, 23)}-0${r.int(1, 9)}-1${r.int(0, 9)}T10:2${r.int(0, 9)}:00Z`,
    plan: r.pick(['growth', 'scale', 'enterprise']),
    products: r.sample(
      w.adapters.map((a) => a.name),
      Math.min(2, w.adapters.length),
    ),
    provider: {
      name: w.provider.name,
      connected_account: `acct_${r.hex(16)}`,
      dashboard_api_version: m.apiVersion ?? 'default',
    },
    contacts: [
      {
        role: 'technical',
        name: w.ticket.requester,
        email: `ops@${m.name.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
      },
      {
        role: 'billing',
        name: 'Accounts Payable',
        email: `ap@${m.name.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
      },
    ],
    volume_30d: {
      charges: r.int(2000, 90000),
      refunds: r.int(20, 900),
      disputes: r.int(0, 40),
      gross_usd: r.int(80000, 4000000),
    },
    risk: { level: 'normal', reviewed_at: '2025-05-14', notes: 'No open reviews.' },
    recent_charges: Array.from({ length: 30 }, (_, i) => ({
      id: `ch_${r.hex(18)}`,
      created: `2025-09-${String(Math.max(1, 28 - i)).padStart(2, '0')}T${String(8 + (i % 10)).padStart(2, '0')}:${String(r.int(10, 59))}:00Z`,
      amount: r.int(900, 48000),
      currency: m.currency,
      status: r.chance(0.9) ? 'succeeded' : 'failed',
      failure_code: null,
    })),
    notes: [
      'Had an outage during the 2022-11 retirement (INC-1877).',
      'Prefers email over phone; copy the technical contact on anything about integrations.',
    ],
  };
  return JSON.stringify(record, null, 2);
}

export function usageDashboard(w: LedgerWorld, r: Random): string {
  const rows: (string | number)[][] = [];
  for (const region of ['us-east', 'us-west', 'eu-west', 'ap-southeast', 'sandbox']) {
    for (const v of ['2023-10', '2024-04', '2024-09', '2025-01'])
      rows.push([region, v, r.int(0, 90000), r.int(0, 40), `${(r.int(0, 30) / 10).toFixed(1)}%`]);
  }
  return [
    `Dashboard: ${w.provider.name} requests by region and ${w.provider.header} (last 30 days, all adapters)`,
    `Source: edge metrics (request counts only; not per merchant)`,
    '',
    renderTableLite(['region', 'version_header', 'requests', 'errors_410', 'error_rate'], rows),
    '',
    'Note: counts are sampled at 1:10 and include retries. Per-merchant breakdown is not available in this dashboard.',
  ].join('\n');
}

function renderTableLite(columns: string[], rows: (string | number)[][]): string {
  return [
    columns.join(' | '),
    columns.map(() => '---').join(' | '),
    ...rows.map((row) => row.join(' | ')),
  ].join('\n');
}

export function versionsArticle(w: LedgerWorld): string {
  return [
    `KB-1987 · ${w.provider.name}: how API versions are set for a merchant`,
    `Owner: Payments Platform · Audience: support Tier 2`,
    ``,
    `Ledgerline sends ${w.provider.name} a version header with every request. The dashboard's "API version" field`,
    `shows the value stored for the merchant. When it says "default", the merchant has no stored value and`,
    `Ledgerline's client default applies (currently ${w.successor}).`,
    ``,
    `Changing a merchant's version`,
    `- Only merchant success changes versions, after the merchant confirms their integration handles the`,
    `  newer responses (field renames, refund reasons). Support must not change it from the admin panel.`,
    `- After a change, merchant success schedules a test charge and watches for errors for 24 hours.`,
    ``,
    `Why merchants have different versions`,
    `- Merchants onboarded before late 2023 were bulk-pinned when pinning was introduced.`,
    `- Some integrations (plugins, older SDKs) parse responses in ways newer versions break, so those`,
    `  merchants were left on older versions on purpose.`,
    `- Test-mode merchants are set up by the developer-experience team and do not follow this process.`,
    ``,
    `What support can tell a merchant`,
    `- The value the dashboard shows, and that engineering checks the full path before any notice.`,
    `- Never promise that a merchant is unaffected based on the dashboard alone.`,
  ].join('\n');
}

export function sandboxArticle(w: LedgerWorld): string {
  return [
    `KB-1402 · Sandbox and test merchants`,
    `Owner: Developer Experience`,
    ``,
    `Test merchants exist for partner integrations, demos and our own contract tests. They use sandbox`,
    `keys, never move money, and are listed in merchant_config with region "sandbox".`,
    ``,
    `- They are provisioned by the developer-experience team, outside the normal onboarding flow.`,
    `- Their traffic goes to ${w.provider.name}'s sandbox, which so far has retired versions on the live dates.`,
    `- Do not include them in live-mode notices. If a change might break them, open a ticket for`,
    `  Developer Experience instead of emailing the merchant contact (often a partner's engineer).`,
  ].join('\n');
}

export function noticeTemplate(w: LedgerWorld): string {
  return [
    `KB-1650 · Merchant notices: templates and approval`,
    ``,
    `Every notice about an upstream change is drafted from the escalation answer and approved by merchant`,
    `success. A notice must name, for the merchant, why they are affected and where we found it.`,
    ``,
    `Template — affected merchant`,
    `  Subject: Action needed before {date}: ${w.provider.name} API change`,
    `  Body: ${w.provider.name} will stop supporting API version {version} on {date}. Your account is affected`,
    `  because {reason} (source: {source}). {what we will do / what you need to do}.`,
    ``,
    `Template — status uncertain (internal only; never sent to merchants)`,
    `  Engineering follow-up: {merchant} may be affected because {reason}; could not be confirmed because`,
    `  {what is missing}. Owner: {team}. Due: {date - 30 days}.`,
    ``,
    `Approval checklist`,
    `- [ ] Every affected merchant has a reason and a source.`,
    `- [ ] Uncertain merchants are in the internal list, not in the notice.`,
    `- [ ] Assumptions behind the list are written down in the escalation.`,
    `- [ ] Test-mode merchants handled per KB-1402.`,
  ].join('\n');
}

export function previousEscalation(w: LedgerWorld): string {
  return [
    `ESC-0412 · Answer: impact of the 2022-11 retirement (re-check after INC-1877)`,
    `Author: escalation agent · Reviewed by: Payments Platform`,
    ``,
    `Question: which merchants still pin 2022-11 after the migration?`,
    ``,
    `Answer:`,
    `- 0 merchants pin 2022-11 (merchant_config.api_version, query without the created_at filter).`,
    `- The migration script's date filter is removed (scripts/migrate-versions.ts:41).`,
    `- Not determined: whether any partner plugin overrides the header client-side. Follow-up PAY-1190.`,
    ``,
    `Sources: merchant_config, scripts/migrate-versions.ts, ${w.provider.name} changelog (2022-11 entry).`,
    ``,
    `Reviewer note: this is the format we want — a list, a source per line, and the open items`,
    `separated so merchant success does not mistake them for findings. Not ${RETIRING}-specific.`,
  ].join('\n');
}
