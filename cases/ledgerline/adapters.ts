import type { AdapterSpec, LedgerWorld } from './world.ts';
import { RETIRING } from './world.ts';
import { operation, operations } from './adapter-operations.ts';

/** Source of the adapter files: realistic TypeScript whose version handling encodes the world. */

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function adapterSource(w: LedgerWorld, a: AdapterSpec, note?: string): string {
  const slug = w.provider.slug;
  const cls = `${pascal(a.name)}Adapter`;
  const ops = operations[a.name] ?? [];
  const head = [
    `/**`,
    ` * ${w.provider.name} adapter for ${a.purpose}.`,
    ` *`,
    ` * Each merchant pins a ${w.provider.name} API version in merchant_config.api_version; the adapter`,
    ` * sends it in the ${w.provider.header} header on every request.`,
    ` */`,
    `import { ${pascal(slug)}Client, type ApiVersion, DEFAULT_API_VERSION } from '../lib/${slug}/client';`,
    `import { UnsupportedVersionError, ${pascal(slug)}ApiError } from '../lib/${slug}/errors';`,
    `import type { MerchantConfig } from '../lib/merchant-config';`,
    `import { logger } from '../lib/logger';`,
    `import { ValidationError } from '../lib/validation';`,
    `import { classifyError } from '../lib/errors';`,
    `import { metrics } from '../lib/metrics';`,
    ``,
    `const log = logger.child({ adapter: '${a.name}' });`,
    ``,
    `const SUPPORTED_VERSIONS: readonly ApiVersion[] = [${a.supported.map((v) => `'${v}'`).join(', ')}];`,
  ];
  if (a.fallback) {
    head.push(
      a.fallback === RETIRING
        ? `// Pinned when version negotiation fails so one bad config row never takes ${a.name} down (INC-2291).`
        : `// Used when negotiation fails; keep in step with DEFAULT_API_VERSION (see PAY-1184).`,
      ...(note ? [`// ${note}`] : []),
      `const FALLBACK_API_VERSION: ApiVersion = '${a.fallback}';`,
    );
  }
  const body = [
    ``,
    `export interface ${cls}Options {`,
    `  client: ${pascal(slug)}Client;`,
    `  timeoutMs?: number;`,
    `}`,
    ``,
    `export class ${cls} {`,
    `  private readonly client: ${pascal(slug)}Client;`,
    `  private readonly timeoutMs: number;`,
    ``,
    `  constructor(options: ${cls}Options) {`,
    `    this.client = options.client;`,
    `    this.timeoutMs = options.timeoutMs ?? 15_000;`,
    `  }`,
    ``,
    ...ops.flatMap((op) => operation(op)),
    ...responseMapping(a),
    ...versionHandling(a, pascal(slug)),
    `}`,
    ``,
    ...errorMapping(a, pascal(slug)),
  ];
  return [...head, ...body].join('\n') + '\n';
}

function versionHandling(a: AdapterSpec, prefix: string): string[] {
  const resolve = [
    `  private resolveVersion(merchant: MerchantConfig): ApiVersion {`,
    a.fallback
      ? `    const wanted = merchant.apiVersion;`
      : `    const wanted = merchant.apiVersion ?? DEFAULT_API_VERSION;`,
    `    if (wanted && SUPPORTED_VERSIONS.includes(wanted as ApiVersion)) return wanted as ApiVersion;`,
    `    throw new UnsupportedVersionError(merchant.merchantId, wanted ?? null);`,
    `  }`,
    ``,
  ];
  if (!a.fallback) {
    return [
      ...resolve,
      `  private async withVersion<T>(merchant: MerchantConfig, send: (version: ApiVersion) => Promise<T>): Promise<T> {`,
      `    const version = this.resolveVersion(merchant);`,
      `    try {`,
      `      return await send(version);`,
      `    } catch (err) {`,
      `      if (err instanceof ${prefix}ApiError) log.warn({ merchant: merchant.merchantId, version, code: err.code }, 'request failed');`,
      `      throw err;`,
      `    }`,
      `  }`,
    ];
  }
  return [
    ...resolve,
    `  private async withVersion<T>(merchant: MerchantConfig, send: (version: ApiVersion) => Promise<T>): Promise<T> {`,
    `    let version: ApiVersion;`,
    `    try {`,
    `      version = this.resolveVersion(merchant);`,
    `    } catch (err) {`,
    `      if (!(err instanceof UnsupportedVersionError)) throw err;`,
    `      // Silent on purpose: a warning here paged on-call for every request (INC-2291).`,
    `      log.debug({ merchant: merchant.merchantId, wanted: merchant.apiVersion }, 'version negotiation failed; using fallback');`,
    `      metrics.increment('adapter.version_fallback', { adapter: '${a.name}' });`,
    `      version = FALLBACK_API_VERSION;`,
    `    }`,
    `    return send(version);`,
    `  }`,
  ];
}

const mappedFields: Record<string, string[]> = {
  checkout: [
    'id',
    'amount',
    'amount_captured',
    'currency',
    'status',
    'payment_method',
    'outcome.network_status',
    'outcome.risk_level',
    'three_d_secure.version',
    'refunded',
    'created',
  ],
  subscriptions: [
    'id',
    'customer',
    'plan',
    'status',
    'current_period_end',
    'trial_end',
    'mandate.status',
    'latest_invoice',
    'cancel_at_period_end',
  ],
  payouts: ['id', 'amount', 'currency', 'arrival_date', 'method', 'status', 'failure_code', 'destination'],
  marketplace: ['id', 'amount', 'currency', 'transfer_group', 'splits', 'status', 'application_fee_amount'],
  terminal: [
    'id',
    'amount',
    'tip_amount',
    'currency',
    'reader',
    'status',
    'reader.software_version',
    'card_present.brand',
  ],
  invoicing: [
    'id',
    'customer',
    'status',
    'due_date',
    'collection',
    'amount_due',
    'amount_paid',
    'hosted_url',
    'lines',
  ],
};

function responseMapping(a: AdapterSpec): string[] {
  const fields = mappedFields[a.name] ?? ['id', 'status'];
  return [
    `  /** Maps ${/^[aeiou]/.test(a.name) ? 'an' : 'a'} ${a.name} response to Ledgerline's model; fields renamed across versions are read both ways. */`,
    `  static toModel(raw: Record<string, any>) {`,
    `    return {`,
    ...fields.map(
      (f) =>
        `      ${camel(f)}: raw${f
          .split('.')
          .map((k) => `?.${k}`)
          .join('')} ?? null,`,
    ),
    `      paymentMethod: raw.payment_method ?? raw.source ?? null, // renamed in 2024-09`,
    `      providerVersion: raw.api_version ?? null,`,
    `    };`,
    `  }`,
    ``,
  ];
}

function errorMapping(a: AdapterSpec, prefix: string): string[] {
  const codes = [
    ['card_declined', 'declined'],
    ['insufficient_funds', 'declined'],
    ['expired_card', 'declined'],
    ['parameter_renamed', 'integration_error'],
    ['parameter_invalid', 'integration_error'],
    ['rate_limited', 'retryable'],
    ['idempotency_conflict', 'integration_error'],
    ['version_retired', 'integration_error'],
    ['processing_error', 'retryable'],
  ];
  return [
    `/** Provider error codes → Ledgerline's error classes for the ${a.name} dashboards and alerts. */`,
    `export function classify${pascal(a.name)}Error(err: unknown): 'declined' | 'retryable' | 'integration_error' | 'unknown' {`,
    `  if (!(err instanceof ${prefix}ApiError)) return 'unknown';`,
    `  switch (err.code) {`,
    ...codes.map(([c, k]) => `    case '${c}':\n      return '${k}';`),
    `    default:`,
    `      return err.status >= 500 ? 'retryable' : 'unknown';`,
    `  }`,
    `}`,
  ];
}

function camel(s: string): string {
  return s.replace(/[._]([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The adapter registry: where the sandbox adapter comes from is the crux of what is knowable. */
export function registrySource(w: LedgerWorld, note?: string, head?: string): string {
  const slug = w.provider.slug;
  const lines = [
    ...(head ? [`// ${head}`] : []),
    `import type { ${pascal(slug)}Client } from '../lib/${slug}/client';`,
    ...w.adapters.map((a) => `import { ${pascal(a.name)}Adapter } from './${a.name}';`),
    w.sandbox.readable
      ? `import { SandboxAdapter } from './sandbox';`
      : `// ${note ?? 'The sandbox adapter ships in its own package, built and versioned by the developer-experience team.'}`,
    w.sandbox.readable ? `` : `import { SandboxAdapter } from '@ledgerline/sandbox-adapter';`,
    ``,
    `export type AdapterName = ${[...w.adapters.map((a) => `'${a.name}'`), `'sandbox'`].join(' | ')};`,
    ``,
    `export function createAdapters(client: ${pascal(slug)}Client) {`,
    `  return {`,
    ...w.adapters.map((a) => `    ${a.name}: new ${pascal(a.name)}Adapter({ client }),`),
    `    sandbox: new SandboxAdapter({ client }),`,
    `  } satisfies Record<AdapterName, unknown>;`,
    `}`,
  ];
  return lines.join('\n') + '\n';
}

/** When readable, the sandbox adapter ignores the merchant's pin and sends its own. */
export function sandboxSource(w: LedgerWorld): string {
  const slug = w.provider.slug;
  return (
    [
      `/**`,
      ` * Sandbox adapter: test-mode merchants only. Sandbox keys are provisioned against one fixed`,
      ` * ${w.provider.name} version, so merchant_config.api_version is ignored here.`,
      ` */`,
      `import { ${pascal(slug)}Client, type ApiVersion } from '../lib/${slug}/client';`,
      `import type { MerchantConfig } from '../lib/merchant-config';`,
      ``,
      `const SANDBOX_API_VERSION: ApiVersion = '${w.sandbox.pin}';`,
      ``,
      `export class SandboxAdapter {`,
      `  constructor(private readonly options: { client: ${pascal(slug)}Client }) {}`,
      ``,
      `  async createCharge(merchant: MerchantConfig, input: { amount: number; currency: string }) {`,
      `    return this.options.client.request('POST', '/v1/charges', input, {`,
      `      version: SANDBOX_API_VERSION,`,
      `      merchantId: merchant.merchantId,`,
      `      sandbox: true,`,
      `    });`,
      `  }`,
      `}`,
    ].join('\n') + '\n'
  );
}
