import type { LedgerWorld } from './world.ts';
import { RETIRING, VERSIONS } from './world.ts';
import { adapterSource, registrySource, sandboxSource } from './adapters.ts';
import { changelog } from './changelog.ts';
import { Random } from '../lib/random.ts';
import { extraFiles } from './repo-extra.ts';
import type { RepoNotes } from './placement.ts';
import { adapterTest, errorFixture, fixture } from './repo-tests.ts';

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const changelogPath = (w: LedgerWorld) => `docs/vendor/${w.provider.slug}-changelog.md`;
export const adapterPath = (name: string) => `adapters/${name}.ts`;

/**
 * The repository the research child can read: every file its searches and reads run over. `notes`
 * are colleagues' remarks a placement puts into files (placement.ts): claims the child can only read.
 */
export function repoFiles(w: LedgerWorld, seed: number, notes: RepoNotes = {}): Record<string, string> {
  const r = new Random('ledgerline-repo', seed, w.index);
  const slug = w.provider.slug;
  const files: Record<string, string> = {
    'README.md': readme(w),
    'adapters/index.ts': registrySource(w, notes.registry?.statement, notes.registryHead?.statement),
    [`lib/${slug}/client.ts`]: clientSource(w),
    [`lib/${slug}/errors.ts`]: errorsSource(w),
    'lib/merchant-config.ts': merchantConfigSource(notes.merchantConfig?.statement),
    'db/migrations/20231104093000_merchant_config_api_version.sql': migration1(w),
    'db/migrations/20240917141500_merchant_config_region.sql': migration2(),
    [changelogPath(w)]: changelog(
      w,
      (notes.changelog ?? []).map((n) => n.statement),
    ),
  };
  for (const a of w.adapters) {
    files[adapterPath(a.name)] = adapterSource(
      w,
      a,
      a.name === w.fallbackAdapter ? notes.fallback?.statement : undefined,
    );
    files[`test/adapters/${a.name}.test.ts`] = adapterTest(w, a.name, r);
    files[`test/fixtures/${slug}/${a.name}-${RETIRING}.json`] = fixture(w, a.name, RETIRING, r);
    files[`test/fixtures/${slug}/${a.name}-${w.successor}.json`] = fixture(w, a.name, w.successor, r);
    files[`test/fixtures/${slug}/${a.name}-error-${RETIRING}.json`] = errorFixture(w, a.name, r);
  }
  Object.assign(files, extraFiles(w, r));
  if (w.sandbox.readable) files['adapters/sandbox.ts'] = sandboxSource(w);
  if (w.batchJob) files['jobs/settlement.ts'] = settlementJob(w, notes.settlement?.statement);
  if (w.gatewayRegion)
    files['docs/architecture/edge-routing.md'] = edgeRouting(w, notes.edgeRouting?.statement);
  return files;
}

function readme(w: LedgerWorld): string {
  return [
    `# ledgerline-payments`,
    ``,
    `Payment adapters between Ledgerline merchants and ${w.provider.name}.`,
    ``,
    `- \`adapters/\` — one adapter per product line (${w.adapters.map((a) => a.name).join(', ')}); sandbox merchants use the sandbox adapter.`,
    `- \`lib/${w.provider.slug}/\` — the HTTP client, errors and version handling.`,
    `- \`lib/merchant-config.ts\` — reads per-merchant settings from the merchant_config table.`,
    w.batchJob
      ? `- \`jobs/\` — nightly settlement and reconciliation jobs.`
      : `- \`scripts/\` — one-off maintenance scripts.`,
    ``,
    `## API versions`,
    ``,
    `Every merchant pins a ${w.provider.name} API version in merchant_config.api_version. Rows without a`,
    `value use the client's DEFAULT_API_VERSION (${w.successor}). Version changes go through the`,
    `merchant-success team, which updates the row and schedules a test charge.`,
    ``,
    `## Running tests`,
    ``,
    '```',
    `pnpm test            # unit tests, recorded fixtures under test/fixtures/${w.provider.slug}`,
    `pnpm test:contract   # against the ${w.provider.name} sandbox (needs ${w.provider.envPrefix}_SANDBOX_KEY)`,
    '```',
    ``,
  ].join('\n');
}

function clientSource(w: LedgerWorld): string {
  return [
    `import { ${pascal(w.provider.slug)}ApiError, VersionRetiredError } from './errors';`,
    ``,
    `export type ApiVersion = ${VERSIONS.map((v) => `'${v}'`).join(' | ')};`,
    ``,
    `/** Used when a merchant row has no api_version. */`,
    `export const DEFAULT_API_VERSION: ApiVersion = '${w.successor}';`,
    ``,
    `export interface RequestOptions {`,
    `  version: ApiVersion;`,
    `  merchantId: string;`,
    `  idempotencyKey?: string;`,
    `  timeoutMs?: number;`,
    `  sandbox?: boolean;`,
    `}`,
    ``,
    `export class ${pascal(w.provider.slug)}Client {`,
    `  constructor(private readonly baseUrl: string, private readonly apiKey: string) {}`,
    ``,
    `  async request<T>(method: string, path: string, body: unknown, opts: RequestOptions): Promise<T> {`,
    `    const res = await fetch(this.baseUrl + path, {`,
    `      method,`,
    `      headers: {`,
    `        authorization: \`Bearer \${this.apiKey}\`,`,
    `        '${w.provider.header}': opts.version,`,
    `        'idempotency-key': opts.idempotencyKey ?? crypto.randomUUID(),`,
    `        'content-type': 'application/json',`,
    `      },`,
    `      body: body === undefined ? undefined : JSON.stringify(body),`,
    `      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),`,
    `    });`,
    `    if (res.status === 410) throw new VersionRetiredError(opts.merchantId, opts.version);`,
    `    if (!res.ok) throw await ${pascal(w.provider.slug)}ApiError.from(res);`,
    `    return (await res.json()) as T;`,
    `  }`,
    `}`,
    ``,
  ].join('\n');
}

function errorsSource(w: LedgerWorld): string {
  const p = pascal(w.provider.slug);
  return [
    `export class ${p}ApiError extends Error {`,
    `  constructor(readonly status: number, readonly code: string, message: string) {`,
    `    super(message);`,
    `  }`,
    `  static async from(res: Response): Promise<${p}ApiError> {`,
    `    const body = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };`,
    `    return new ${p}ApiError(res.status, body.error?.code ?? 'unknown', body.error?.message ?? res.statusText);`,
    `  }`,
    `}`,
    ``,
    `/** The merchant's pinned version is missing or not supported by the adapter. */`,
    `export class UnsupportedVersionError extends Error {`,
    `  constructor(readonly merchantId: string, readonly wanted: string | null) {`,
    `    super(\`unsupported_version: \${wanted ?? '(none)'} for \${merchantId}\`);`,
    `  }`,
    `}`,
    ``,
    `/** ${w.provider.name} answered 410 version_retired. */`,
    `export class VersionRetiredError extends Error {`,
    `  constructor(readonly merchantId: string, readonly version: string) {`,
    `    super(\`version_retired: \${version} for \${merchantId}\`);`,
    `  }`,
    `}`,
    ``,
  ].join('\n');
}

function merchantConfigSource(note?: string): string {
  return [
    `import { db } from './db';`,
    ``,
    `export interface MerchantConfig {`,
    `  merchantId: string;`,
    `  displayName: string;`,
    `  adapter: string;`,
    `  /** merchant_config.api_version; null means the client default. */`,
    `  apiVersion: string | null;`,
    `  region: string;`,
    `}`,
    ``,
    ...(note ? [`// ${note}`] : []),
    `export async function loadMerchantConfig(merchantId: string): Promise<MerchantConfig> {`,
    `  const row = await db.one(`,
    `    'SELECT merchant_id, display_name, adapter, api_version, region FROM merchant_config WHERE merchant_id = $1',`,
    `    [merchantId],`,
    `  );`,
    `  return {`,
    `    merchantId: row.merchant_id,`,
    `    displayName: row.display_name,`,
    `    adapter: row.adapter,`,
    `    apiVersion: row.api_version,`,
    `    region: row.region,`,
    `  };`,
    `}`,
    ``,
  ].join('\n');
}

function migration1(w: LedgerWorld): string {
  return [
    `-- Pin the ${w.provider.name} API version per merchant (PAY-812).`,
    `ALTER TABLE merchant_config ADD COLUMN api_version text;`,
    `UPDATE merchant_config SET api_version = '${RETIRING}' WHERE adapter <> 'sandbox';`,
    `COMMENT ON COLUMN merchant_config.api_version IS '${w.provider.header} sent for this merchant; NULL = client default';`,
    ``,
  ].join('\n');
}

function migration2(): string {
  return [
    `ALTER TABLE merchant_config ADD COLUMN region text NOT NULL DEFAULT 'us-east';`,
    `CREATE INDEX merchant_config_region_idx ON merchant_config (region);`,
    ``,
  ].join('\n');
}

function settlementJob(w: LedgerWorld, note?: string): string {
  return [
    `/** Nightly settlement: pulls the day's balance transactions for every live merchant. */`,
    `import { ${pascal(w.provider.slug)}Client, type ApiVersion } from '../lib/${w.provider.slug}/client';`,
    `import { db } from '../lib/db';`,
    ``,
    note
      ? `// ${note}`
      : `// Set per environment in the deploy pipeline; not every environment has been moved yet.`,
    `const BATCH_VERSION = process.env.${w.provider.envPrefix}_BATCH_VERSION as ApiVersion;`,
    ``,
    `export async function runSettlement(client: ${pascal(w.provider.slug)}Client, day: string) {`,
    `  const merchants = await db.many("SELECT merchant_id FROM merchant_config WHERE adapter <> 'sandbox'");`,
    `  for (const { merchant_id } of merchants) {`,
    `    await client.request('GET', \`/v1/balance_transactions?day=\${day}\`, undefined, { version: BATCH_VERSION, merchantId: merchant_id });`,
    `  }`,
    `}`,
    ``,
  ].join('\n');
}

function edgeRouting(w: LedgerWorld, note?: string): string {
  return [
    `# Edge routing`,
    ``,
    `Requests for merchants in ${w.gatewayRegion} leave through the regional edge proxy, which terminates TLS`,
    `and applies per-route header rules before forwarding to ${w.provider.name}. The rules live in the`,
    `infra repository (edge-proxy/routes/${w.provider.slug}.yaml) and are deployed separately.`,
    ``,
    `Other regions call ${w.provider.name} directly from the adapters.`,
    ``,
    ...(note ? [note, ``] : []),
  ].join('\n');
}
