/** Each adapter's request methods: the provider operations it wraps and the method source for one. */

interface Operation {
  method: string;
  path: string;
  fields: string[];
}

export const operations: Record<string, Operation[]> = {
  checkout: [
    {
      method: 'createCharge',
      path: '/v1/charges',
      fields: ['amount', 'currency', 'source', 'description', 'statementDescriptor'],
    },
    { method: 'capture', path: '/v1/charges/{id}/capture', fields: ['amount'] },
    { method: 'refund', path: '/v1/refunds', fields: ['charge', 'amount', 'reason'] },
    { method: 'confirmThreeDS', path: '/v1/charges/{id}/3ds/confirm', fields: ['returnUrl'] },
  ],
  subscriptions: [
    {
      method: 'createSubscription',
      path: '/v1/subscriptions',
      fields: ['customer', 'plan', 'trialDays', 'mandate'],
    },
    { method: 'cancelSubscription', path: '/v1/subscriptions/{id}/cancel', fields: ['atPeriodEnd'] },
    { method: 'retryInvoice', path: '/v1/invoices/{id}/retry', fields: ['attempt'] },
  ],
  payouts: [
    { method: 'createPayout', path: '/v1/payouts', fields: ['amount', 'currency', 'destination', 'method'] },
    { method: 'cancelPayout', path: '/v1/payouts/{id}/cancel', fields: [] },
    { method: 'getBalance', path: '/v1/balance', fields: [] },
  ],
  marketplace: [
    { method: 'createSplitCharge', path: '/v1/charges', fields: ['amount', 'currency', 'source', 'splits'] },
    {
      method: 'transferToSeller',
      path: '/v1/transfers',
      fields: ['amount', 'currency', 'destination', 'sourceTransaction'],
    },
    {
      method: 'reverseTransfer',
      path: '/v1/transfers/{id}/reversals',
      fields: ['amount', 'refundApplicationFee'],
    },
  ],
  terminal: [
    {
      method: 'createTerminalPayment',
      path: '/v1/terminal/payments',
      fields: ['amount', 'currency', 'reader', 'tipAmount'],
    },
    { method: 'cancelTerminalPayment', path: '/v1/terminal/payments/{id}/cancel', fields: [] },
    { method: 'refundTerminalPayment', path: '/v1/refunds', fields: ['charge', 'amount', 'reason'] },
  ],
  invoicing: [
    { method: 'createInvoice', path: '/v1/invoices', fields: ['customer', 'lines', 'dueDate', 'collection'] },
    { method: 'sendInvoice', path: '/v1/invoices/{id}/send', fields: ['channel'] },
    { method: 'voidInvoice', path: '/v1/invoices/{id}/void', fields: [] },
  ],
};

/** One adapter method: validation, the versioned request, metrics. */
export function operation(op: Operation): string[] {
  const hasId = op.path.includes('{id}');
  const args = [
    `merchant: MerchantConfig`,
    ...(hasId ? ['id: string'] : []),
    ...(op.fields.length ? [`input: { ${op.fields.map((f) => `${f}?: unknown`).join('; ')} }`] : []),
  ];
  const path = hasId ? `\`${op.path.replace('{id}', '${encodeURIComponent(id)}')}\`` : `'${op.path}'`;
  const body = op.fields.length
    ? `{ ${op.fields.map((f) => `${snake(f)}: input.${f}`).join(', ')} }`
    : 'undefined';
  const checks = op.fields
    .slice(0, 3)
    .map(
      (f) =>
        `    if (input.${f} === undefined) throw new ValidationError('${op.method}', '${f} is required');`,
    );
  return [
    `  /**`,
    `   * ${op.method}: ${op.path === '/v1/balance' ? 'GET' : 'POST'} ${op.path}.`,
    `   * Retries are the caller's business; this method never retries, so idempotency keys stay unique.`,
    `   */`,
    `  async ${op.method}(${args.join(', ')}) {`,
    ...checks,
    `    if (merchant.region === 'sandbox') throw new ValidationError('${op.method}', 'sandbox merchants use the sandbox adapter');`,
    `    const started = Date.now();`,
    `    try {`,
    `      return await this.withVersion(merchant, (version) =>`,
    `        this.client.request('${op.path === '/v1/balance' ? 'GET' : 'POST'}', ${path}, ${body}, {`,
    `          version,`,
    `          merchantId: merchant.merchantId,`,
    `          idempotencyKey: merchant.merchantId + ':' + started,`,
    `          timeoutMs: this.timeoutMs,`,
    `        }),`,
    `      );`,
    `    } catch (err) {`,
    `      metrics.increment('adapter.request_error', { op: '${op.method}', kind: classifyError(err) });`,
    `      throw err;`,
    `    } finally {`,
    `      metrics.timing('adapter.request_ms', Date.now() - started, { op: '${op.method}' });`,
    `    }`,
    `  }`,
    ``,
  ];
}

function snake(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
