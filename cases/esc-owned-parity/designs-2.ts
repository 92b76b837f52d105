import type { Design } from './designs.ts';

export const moreDesigns: Design[] = [
  {
    id: 'audit-export',
    repo: 'acme/ledger-core',
    task: 'Build the audit-log export described in docs/design/audit-export.md: NDJSON files, gzip, split at 256 MB, signed manifest. Tests included.',
    docPath: 'docs/design/audit-export.md',
    doc: `# Design: audit-log export\n\nStatus: approved · Owner: compliance-eng\n\n## Decision\n- Export a tenant's audit events for a time range as NDJSON, gzip-compressed.\n- Split into parts of at most 256 MB uncompressed (\`MaxPartBytes\`); parts are numbered \`part-0001.ndjson.gz\`, ….\n- Write \`manifest.json\` last: part names, event counts, SHA-256 per part, signed with the tenant's export key (Ed25519).\n- Events of type \`session.heartbeat\` are excluded (noise, 70% of volume).\n- Exports are written to the tenant's bucket under \`exports/{export_id}/\`.\n\n## Non-goals\n- Incremental exports. Custom filters.\n`,
    modulePath: 'export/export.go',
    module: `package export\n\nimport (\n\t"compress/gzip"\n\t"crypto/ed25519"\n\t"crypto/sha256"\n\t"encoding/json"\n\t"fmt"\n\t"io"\n)\n\n// MaxPartBytes is the uncompressed size limit of one part.\nconst MaxPartBytes = 256 << 20\n\nvar excluded = map[string]bool{"session.heartbeat": true}\n\ntype Part struct {\n\tName   string \`json:"name"\`\n\tEvents int    \`json:"events"\`\n\tSHA256 string \`json:"sha256"\`\n}\n\n// Export streams events into parts and returns the signed manifest.\nfunc Export(events Iterator, open func(name string) (io.WriteCloser, error), key ed25519.PrivateKey) (Manifest, error) {\n\tvar m Manifest\n\tvar w *partWriter\n\tfor ev, ok := events.Next(); ok; ev, ok = events.Next() {\n\t\tif excluded[ev.Type] {\n\t\t\tcontinue\n\t\t}\n\t\tline, err := json.Marshal(ev)\n\t\tif err != nil {\n\t\t\treturn m, err\n\t\t}\n\t\tif w == nil || w.size+len(line)+1 > MaxPartBytes {\n\t\t\tif err := w.closeInto(&m); err != nil {\n\t\t\t\treturn m, err\n\t\t\t}\n\t\t\tif w, err = newPartWriter(open, fmt.Sprintf("part-%04d.ndjson.gz", len(m.Parts)+1)); err != nil {\n\t\t\t\treturn m, err\n\t\t\t}\n\t\t}\n\t\tw.write(line)\n\t}\n\tif err := w.closeInto(&m); err != nil {\n\t\treturn m, err\n\t}\n\treturn m.sign(key), nil\n}\n\nvar _ = gzip.BestSpeed\nvar _ = sha256.New\n`,
    testPath: 'github.com/acme/ledger-core/export',
    tests: [
      'TestExportEmpty',
      'TestExportOnePart',
      'TestExportSplitsAtLimit',
      'TestExportExcludesHeartbeat',
      'TestPartNamesNumbered',
      'TestManifestCounts',
      'TestManifestSHA256',
      'TestManifestSignatureVerifies',
      'TestManifestWrittenLast',
      'TestOpenErrorPropagates',
      'TestMarshalErrorPropagates',
      'TestGzipRoundTrip',
    ],
    failingTest: {
      name: 'TestExportSplitsAtLimit',
      detail: ['export_test.go:77: got 3 parts, want 2 (event exactly filling the part opened a new one)'],
    },
    fix: {
      old: 'if w == nil || w.size+len(line)+1 > MaxPartBytes {',
      new: 'if w == nil || (w.size > 0 && w.size+len(line)+1 > MaxPartBytes) {',
      why: 'an empty part was closed when a single event was at the limit',
    },
    report: {
      confident: [
        {
          id: 'limit',
          statement:
            'Parts are split at MaxPartBytes = 256 MB uncompressed (export/export.go:13), named part-0001.ndjson.gz onwards.',
          cues: ['maxpartbytes', '256 mb'],
          provenance: ['export/export.go:13'],
        },
        {
          id: 'excluded',
          statement:
            'session.heartbeat events are excluded via the excluded map (export/export.go:15), as the design says.',
          cues: ['session.heartbeat', 'excluded'],
          provenance: ['export/export.go:15'],
        },
      ],
      hedge: {
        statement:
          "I could not confirm that the tenants' buckets accept 256 MB parts without multipart upload; the storage client is mocked in the tests.",
        claim: "the tenants' buckets accept 256 MB parts without multipart upload",
        cues: ['accept 256 mb parts without multipart upload'],
      },
      assumption: {
        statement:
          'Assuming every tenant already has an Ed25519 export key; the export fails if none is provisioned.',
        claim: 'every tenant already has an Ed25519 export key',
        cues: ['every tenant already has an ed25519 export key'],
      },
    },
    followUps: [
      {
        request: 'A customer asks how big one export file can get. What do I tell them?',
        facts: [
          {
            id: 'f-limit',
            text: 'each part holds at most 256 MB uncompressed (MaxPartBytes), gzip-compressed on disk',
            cues: ['maxpartbytes', '256 mb'],
          },
        ],
        expectedWords: 60,
      },
      {
        request: 'Are heartbeat events in the export? Compliance wants everything.',
        facts: [
          {
            id: 'f-excluded',
            text: 'no: session.heartbeat events are excluded by design',
            cues: ['session.heartbeat', 'excluded'],
          },
        ],
        expectedWords: 60,
      },
    ],
  },
  {
    id: 'webhook-retries',
    repo: 'acme/notify',
    task: 'Implement webhook delivery retries per docs/design/webhook-retries.md: exponential backoff with jitter, give up after 24 hours, dead-letter table, manual replay endpoint.',
    docPath: 'docs/design/webhook-retries.md',
    doc: `# Design: webhook delivery retries\n\nStatus: approved · Owner: integrations\n\n## Decision\n- Retry on network errors, timeouts (10 s) and 5xx/429; never on other 4xx.\n- Backoff: 30 s · 2^(attempt-1), jitter ±20%, capped at 1 hour.\n- Give up 24 hours after the first attempt; the delivery moves to \`webhook_dead_letters\`.\n- \`POST /v1/webhooks/deliveries/{id}/replay\` re-enqueues a dead letter (admin scope).\n- Per-endpoint ordering is not guaranteed.\n\n## Non-goals\n- Endpoint auto-disable (separate design).\n`,
    modulePath: 'src/webhooks/retry.ts',
    module: `import { db } from '../db';\nimport { queue } from '../queue';\n\nexport const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;\nconst BASE_MS = 30_000;\nconst CAP_MS = 60 * 60 * 1000;\n\nexport function shouldRetry(status: number | 'timeout' | 'network'): boolean {\n  if (status === 'timeout' || status === 'network') return true;\n  return status === 429 || status >= 500;\n}\n\nexport function nextDelay(attempt: number, rand = Math.random): number {\n  const base = Math.min(CAP_MS, BASE_MS * 2 ** (attempt - 1));\n  return Math.round(base * (0.8 + 0.4 * rand()));\n}\n\nexport async function onFailure(delivery: Delivery, status: number | 'timeout' | 'network'): Promise<void> {\n  const age = Date.now() - delivery.firstAttemptAt;\n  if (!shouldRetry(status) || age + nextDelay(delivery.attempt + 1) > GIVE_UP_AFTER_MS) {\n    await db.insert('webhook_dead_letters', { ...delivery, lastStatus: String(status), deadAt: new Date() });\n    return;\n  }\n  await queue.enqueue('webhook.deliver', { id: delivery.id, attempt: delivery.attempt + 1 }, { delayMs: nextDelay(delivery.attempt + 1) });\n}\n`,
    testPath: 'src/webhooks/retry.test.ts',
    tests: [
      'retries 5xx',
      'retries 429',
      'does not retry 400',
      'does not retry 410',
      'retries timeouts',
      'retries network errors',
      'delay doubles',
      'delay capped at one hour',
      'jitter within 20%',
      'dead-letters after 24h',
      'dead-letters non-retryable immediately',
      'replay re-enqueues',
      'replay requires admin scope',
    ],
    failingTest: {
      name: 'dead-letters after 24h',
      detail: [
        "AssertionError: expected 'queued' to be 'dead' // Object.is equality",
        ' ❯ src/webhooks/retry.test.ts:88:31',
      ],
    },
    fix: {
      old: 'const age = Date.now() - delivery.firstAttemptAt;',
      new: 'const age = Date.now() - new Date(delivery.firstAttemptAt).getTime();',
      why: 'firstAttemptAt came back from the database as an ISO string',
    },
    report: {
      confident: [
        {
          id: 'giveup',
          statement:
            'Deliveries give up 24 hours after the first attempt (GIVE_UP_AFTER_MS, src/webhooks/retry.ts:4) and move to webhook_dead_letters.',
          cues: ['give_up_after_ms', 'webhook_dead_letters'],
          provenance: ['src/webhooks/retry.ts:4'],
        },
        {
          id: 'replay',
          statement:
            'Dead letters are replayed with POST /v1/webhooks/deliveries/{id}/replay, admin scope only (docs/design/webhook-retries.md:9).',
          cues: ['/replay', 'admin scope'],
          provenance: ['docs/design/webhook-retries.md:9'],
        },
      ],
      hedge: {
        statement:
          'I could not determine whether the queue honours delays longer than 15 minutes in production; the local queue does.',
        claim: 'the queue honours delays longer than 15 minutes in production',
        cues: ['honours delays longer than 15 minutes'],
      },
      assumption: {
        statement:
          'Assuming endpoints are idempotent on delivery id, since a replay can deliver an event twice.',
        claim: 'endpoints are idempotent on delivery id',
        cues: ['idempotent on delivery id'],
      },
    },
    followUps: [
      {
        request: 'After how long do we stop retrying a webhook, and where does it end up?',
        facts: [
          {
            id: 'f-giveup',
            text: 'after 24 hours (GIVE_UP_AFTER_MS) a delivery moves to webhook_dead_letters',
            cues: ['give_up_after_ms', 'webhook_dead_letters'],
          },
        ],
        expectedWords: 50,
      },
      {
        request: 'Support wants to resend a dead webhook for a customer. How?',
        facts: [
          {
            id: 'f-replay',
            text: 'POST /v1/webhooks/deliveries/{id}/replay with a token that has admin scope',
            cues: ['/replay', 'admin scope'],
          },
        ],
        expectedWords: 50,
      },
    ],
  },
];
