import type { LedgerWorld } from './world.ts';
import { RETIRING, VERSIONS } from './world.ts';
import type { Random } from '../lib/random.ts';

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Supporting files a real payments repo has: webhooks, a versions table, an admin form, event fixtures. */
export function extraFiles(w: LedgerWorld, r: Random): Record<string, string> {
  const slug = w.provider.slug;
  const files: Record<string, string> = {
    [`lib/${slug}/versions.ts`]: versionsSource(w),
    'webhooks/handler.ts': webhookHandler(w),
    'admin/merchant-settings.tsx': adminForm(w),
    'scripts/backfill-api-version.ts': backfillScript(w),
    'docs/runbooks/version-upgrade.md': upgradeRunbook(w),
  };
  const events = ['charge.succeeded', 'charge.refunded', 'payout.paid', 'invoice.payment_failed'];
  for (const e of events) {
    for (const v of [RETIRING, w.successor])
      files[`test/fixtures/${slug}/events/${e.replace('.', '_')}-${v}.json`] = event(e, v, r);
  }
  return files;
}

function versionsSource(w: LedgerWorld): string {
  const notes: Record<string, string> = {
    '2023-10': `retiring ${w.retirementDate}`,
    '2024-04': 'integer amounts everywhere; trial_end',
    '2024-09': 'payment_method rename; enumerated refund reasons',
    '2025-01': 'risk_score 0–100; mandate_revoked',
  };
  return [
    `import type { ApiVersion } from './client';`,
    ``,
    `/** Versions Ledgerline has integrated, newest last. Keep in step with the vendored changelog. */`,
    `export const KNOWN_VERSIONS: { version: ApiVersion; note: string }[] = [`,
    ...VERSIONS.map((v) => `  { version: '${v}', note: '${notes[v]}' },`),
    `];`,
    ``,
    `export function isKnownVersion(v: string | null | undefined): v is ApiVersion {`,
    `  return KNOWN_VERSIONS.some((k) => k.version === v);`,
    `}`,
    ``,
  ].join('\n');
}

function webhookHandler(w: LedgerWorld): string {
  return [
    `import { verifySignature } from '../lib/${w.provider.slug}/signature';`,
    `import { loadMerchantConfig } from '../lib/merchant-config';`,
    `import { logger } from '../lib/logger';`,
    ``,
    `const log = logger.child({ component: 'webhooks' });`,
    ``,
    `export async function handle${pascal(w.provider.slug)}Webhook(body: string, signature: string) {`,
    `  const event = verifySignature(body, signature);`,
    `  const merchant = await loadMerchantConfig(event.account);`,
    `  // Events are rendered with the endpoint's version, which can differ from the merchant's pin.`,
    `  if (event.api_version !== merchant.apiVersion) {`,
    `    log.info({ merchant: merchant.merchantId, event: event.api_version, pinned: merchant.apiVersion }, 'event version differs from pin');`,
    `  }`,
    `  switch (event.type) {`,
    `    case 'charge.succeeded':`,
    `    case 'charge.refunded':`,
    `      return import('./charges').then((m) => m.onChargeEvent(merchant, event));`,
    `    case 'payout.paid':`,
    `      return import('./payouts').then((m) => m.onPayoutEvent(merchant, event));`,
    `    case 'invoice.payment_failed':`,
    `    case 'subscription.updated':`,
    `      return import('./billing').then((m) => m.onBillingEvent(merchant, event));`,
    `    default:`,
    `      log.debug({ type: event.type }, 'ignored event');`,
    `  }`,
    `}`,
    ``,
  ].join('\n');
}

function adminForm(w: LedgerWorld): string {
  return [
    `import { KNOWN_VERSIONS } from '../lib/${w.provider.slug}/versions';`,
    ``,
    `/** Merchant-success only: the api_version field writes merchant_config.api_version directly. */`,
    `export function MerchantSettings({ merchant, canEditVersion }: Props) {`,
    `  return (`,
    `    <form method="post" action={\`/admin/merchants/\${merchant.merchantId}\`}>`,
    `      <label>Adapter <input name="adapter" value={merchant.adapter} readOnly /></label>`,
    `      <label>`,
    `        ${w.provider.name} API version`,
    `        <select name="api_version" defaultValue={merchant.apiVersion ?? ''} disabled={!canEditVersion}>`,
    `          <option value="">default</option>`,
    `          {KNOWN_VERSIONS.map((v) => <option key={v.version} value={v.version}>{v.version} — {v.note}</option>)}`,
    `        </select>`,
    `      </label>`,
    `      <label>Region <input name="region" value={merchant.region} readOnly /></label>`,
    `      <button type="submit" disabled={!canEditVersion}>Save</button>`,
    `    </form>`,
    `  );`,
    `}`,
    ``,
  ].join('\n');
}

function backfillScript(w: LedgerWorld): string {
  return [
    `/**`,
    ` * One-off (PAY-812, Nov 2023): pin every live merchant to ${RETIRING} when version pinning was introduced.`,
    ` * Kept for reference; do not re-run — merchant success owns api_version since then.`,
    ` */`,
    `import { db } from '../lib/db';`,
    ``,
    `const TARGET = '${RETIRING}';`,
    ``,
    `async function main() {`,
    `  const rows = await db.many("SELECT merchant_id, adapter, api_version FROM merchant_config WHERE api_version IS NULL AND adapter <> 'sandbox'");`,
    `  console.log(\`pinning \${rows.length} merchants to \${TARGET}\`);`,
    `  for (const row of rows) {`,
    `    await db.none('UPDATE merchant_config SET api_version = $1, updated_at = now() WHERE merchant_id = $2 AND api_version IS NULL', [TARGET, row.merchant_id]);`,
    `  }`,
    `  const check = await db.one('SELECT count(*) AS n FROM merchant_config WHERE api_version IS NULL');`,
    `  console.log(\`rows still without api_version: \${check.n}\`);`,
    `}`,
    ``,
    `main().catch((err) => {`,
    `  console.error(err);`,
    `  process.exit(1);`,
    `});`,
    ``,
  ].join('\n');
}

function upgradeRunbook(w: LedgerWorld): string {
  return [
    `# Upgrading a merchant's ${w.provider.name} API version`,
    ``,
    `Owner: merchant success, with Payments Platform on call for questions.`,
    ``,
    `1. Confirm with the merchant which integration they use (direct API, plugin, SDK and its version).`,
    `2. In the admin panel, open the merchant and note the current API version (merchant_config.api_version).`,
    `3. Check the changelog entries between the current version and the target; list the breaking changes`,
    `   that touch the merchant's products.`,
    `4. Change api_version to the target (today: ${w.successor}) and save. The adapters read the new value on the`,
    `   next request; there is no cache.`,
    `5. Ask the merchant to run a test order; watch adapter.request_error for the merchant for 24 hours.`,
    `6. Record the change in the merchant's ticket.`,
    ``,
    `Rolling back: set api_version back to the previous value. Never set a retired version (${RETIRING} after`,
    `${w.retirementDate}); the adapters would send it and ${w.provider.name} would reject every request.`,
    ``,
    `Rows with an empty api_version use the client default; prefer an explicit value when upgrading.`,
    ``,
  ].join('\n');
}

function event(type: string, version: string, r: Random): string {
  const obj = type.split('.')[0];
  return (
    JSON.stringify(
      {
        id: `evt_${r.hex(20)}`,
        object: 'event',
        type,
        api_version: version,
        created: 1700000000 + r.int(0, 5e7),
        livemode: false,
        account: `acct_${r.hex(16)}`,
        data: {
          object: {
            id: `${obj!.slice(0, 3)}_${r.hex(18)}`,
            object: obj,
            amount: r.int(500, 90000),
            currency: r.pick(['usd', 'eur', 'gbp']),
            status: type.endsWith('failed') ? 'failed' : 'succeeded',
            metadata: { ledgerline_merchant: `m_00${r.int(10, 99)}`, order: String(r.int(100000, 999999)) },
          },
        },
        request: { id: `req_${r.hex(20)}`, idempotency_key: `${r.hex(8)}-${r.hex(4)}-${r.hex(4)}` },
      },
      null,
      2,
    ) + '\n'
  );
}
