/**
 * Hard tasks an escalation agent finishes in the first turns of an owned session, each with the
 * later, small requests that follow. Everything the follow-up needs was said in the session.
 */
export interface FollowUp {
  request: string;
  facts: { id: string; text: string; cues: string[] }[];
  expectedWords: number;
}

export interface Design {
  id: string;
  repo: string;
  task: string;
  docPath: string;
  doc: string;
  modulePath: string;
  module: string;
  testPath: string;
  tests: string[];
  failingTest: { name: string; detail: string[] };
  fix: { old: string; new: string; why: string };
  /** What the agent reports when done: confident lines with provenance, one hedge, one assumption. */
  report: {
    confident: { id: string; statement: string; cues: string[]; provenance: string[] }[];
    hedge: { statement: string; claim: string; cues: string[] };
    assumption: { statement: string; claim: string; cues: string[] };
  };
  followUps: FollowUp[];
}

export const designs: Design[] = [
  {
    id: 'ratelimit',
    repo: 'acme/edge-api',
    task: 'Implement per-tenant rate limiting as described in docs/design/rate-limiting.md. Token bucket, configurable per plan, 429 with Retry-After. Add tests.',
    docPath: 'docs/design/rate-limiting.md',
    doc: `# Design: per-tenant rate limiting\n\nStatus: approved (2025-08-14) · Owner: platform\n\n## Problem\nOne tenant's batch job can starve every other tenant of API capacity. Today the only limit is the\nload balancer's global connection cap.\n\n## Decision\n- A token bucket per tenant, kept in Redis (one key per tenant: \`rl:{tenant}\`), refilled lazily on read.\n- Bucket size (burst) and refill rate come from the tenant's plan:\n  | plan | burst | refill/s |\n  |---|---|---|\n  | free | 20 | 2 |\n  | team | 100 | 20 |\n  | enterprise | 400 | 100 |\n- Over the limit: HTTP 429 with \`Retry-After\` (seconds until one token is available, rounded up).\n- Admin routes (\`/admin/*\`) and health checks are exempt.\n- Redis unavailable: fail open (allow the request) and count \`ratelimit.redis_error\`.\n\n## Non-goals\n- Per-endpoint limits. Global limits. Limits at the CDN (owned by the network team).\n\n## Rollout\nBehind the \`rate_limit\` flag, enabled per plan, free first.\n`,
    modulePath: 'src/middleware/rate-limit.ts',
    module: `import type { Middleware } from '../http';\nimport { redis } from '../redis';\nimport { planOf } from '../tenants';\nimport { metrics } from '../metrics';\n\nexport const PLAN_LIMITS = {\n  free: { burst: 20, refillPerSec: 2 },\n  team: { burst: 100, refillPerSec: 20 },\n  enterprise: { burst: 400, refillPerSec: 100 },\n} as const;\n\nconst EXEMPT = [/^\\/admin\\//, /^\\/healthz$/];\n\nexport const rateLimit: Middleware = async (req, res, next) => {\n  if (EXEMPT.some((re) => re.test(req.path))) return next();\n  const limits = PLAN_LIMITS[planOf(req.tenant)];\n  let allowed = true;\n  let retryAfter = 0;\n  try {\n    [allowed, retryAfter] = await take(\`rl:\${req.tenant}\`, limits.burst, limits.refillPerSec);\n  } catch {\n    metrics.increment('ratelimit.redis_error');\n    return next(); // fail open\n  }\n  if (!allowed) {\n    res.setHeader('Retry-After', String(Math.ceil(retryAfter)));\n    return res.status(429).json({ error: 'rate_limited' });\n  }\n  return next();\n};\n\nasync function take(key: string, burst: number, rate: number): Promise<[boolean, number]> {\n  const now = Date.now() / 1000;\n  const [tokens, at] = (await redis.hmget(key, 'tokens', 'at')).map(Number);\n  const level = Math.min(burst, (Number.isFinite(tokens) ? tokens : burst) + (now - (at || now)) * rate);\n  if (level < 1) return [false, (1 - level) / rate];\n  await redis.hset(key, { tokens: level - 1, at: now });\n  return [true, 0];\n}\n`,
    testPath: 'src/middleware/rate-limit.test.ts',
    tests: [
      'allows up to the burst',
      'rejects the request after the burst',
      'sets Retry-After in whole seconds',
      'refills at the plan rate',
      'team plan burst is 100',
      'enterprise plan burst is 400',
      'admin routes are exempt',
      'health check is exempt',
      'fails open when Redis is down',
      'counts redis errors',
      'buckets are per tenant',
      'unknown plan falls back to free',
    ],
    failingTest: {
      name: 'sets Retry-After in whole seconds',
      detail: [
        "AssertionError: expected '0' to be '1' // Object.is equality",
        ' ❯ src/middleware/rate-limit.test.ts:41:44',
      ],
    },
    fix: {
      old: "res.setHeader('Retry-After', String(Math.ceil(retryAfter)));",
      new: "res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfter))));",
      why: 'Retry-After rounded a sub-second wait to 0',
    },
    report: {
      confident: [
        {
          id: 'limits',
          statement:
            'Burst and refill come from PLAN_LIMITS (src/middleware/rate-limit.ts:6): free 20 at 2/s, team 100 at 20/s, enterprise 400 at 100/s, as in the design table.',
          cues: ['plan_limits', 'free 20'],
          provenance: ['src/middleware/rate-limit.ts:6'],
        },
        {
          id: 'exempt',
          statement:
            'Admin routes and /healthz are exempt via the EXEMPT list (src/middleware/rate-limit.ts:12).',
          cues: ['exempt list', 'admin routes'],
          provenance: ['src/middleware/rate-limit.ts:12'],
        },
      ],
      hedge: {
        statement:
          'I could not determine whether the CDN also rate-limits these routes; its configuration is owned by the network team and is not in this repo.',
        claim: 'the CDN also rate-limits these routes',
        cues: ['cdn also rate-limits'],
      },
      assumption: {
        statement:
          'Assuming planOf() always returns one of the three plans; an unknown plan falls back to free in planOf itself.',
        claim: 'planOf() always returns one of the three plans',
        cues: ['planof() always returns one of the three plans'],
      },
    },
    followUps: [
      {
        request: 'Quick question: what burst does a free-plan tenant get now, and where would I change it?',
        facts: [
          {
            id: 'f-burst',
            text: 'PLAN_LIMITS in src/middleware/rate-limit.ts sets free 20 (burst, refill 2/s); change it there',
            cues: ['plan_limits', 'free 20'],
          },
        ],
        expectedWords: 70,
      },
      {
        request: 'Does the limiter apply to /admin/reindex? Ops wants to run it in a loop tonight.',
        facts: [
          {
            id: 'f-exempt',
            text: 'admin routes, including /admin/reindex, are exempt via the EXEMPT list',
            cues: ['exempt list', 'admin routes'],
          },
        ],
        expectedWords: 60,
      },
    ],
  },
  {
    id: 'flags',
    repo: 'acme/flagship',
    task: 'Implement percentage rollouts for feature flags following docs/design/percentage-rollout.md: stable hashing per user, optional region filter, and a kill switch. Tests please.',
    docPath: 'docs/design/percentage-rollout.md',
    doc: `# Design: percentage rollouts\n\nStatus: approved · Owner: growth-infra\n\n## Decision\n- A flag may carry \`rollout: {percent, salt, regions?}\`.\n- A user is in the rollout when \`murmur3(salt + ":" + user_id) % 10000 < percent * 100\` — stable across\n  deploys and processes, independent per flag because of the salt.\n- \`regions\` (optional): only users whose \`region\` is listed can be in the rollout.\n- \`kill: true\` turns the flag off for everyone, overriding the rollout.\n- Changing \`percent\` upwards never removes a user who was already in.\n\n## Non-goals\n- Sticky assignment stored per user. Experiment analysis.\n`,
    modulePath: 'flagship/rollout.py',
    module: `"""Percentage rollouts: stable, salted bucketing of users into a flag."""\nfrom __future__ import annotations\n\nfrom dataclasses import dataclass\n\nimport mmh3\n\nBUCKETS = 10_000\n\n\n@dataclass(frozen=True)\nclass Rollout:\n    percent: float\n    salt: str\n    regions: tuple[str, ...] = ()\n\n\ndef bucket(salt: str, user_id: str) -> int:\n    return mmh3.hash(f"{salt}:{user_id}", signed=False) % BUCKETS\n\n\ndef is_enabled(flag: dict, user: dict) -> bool:\n    if flag.get("kill"):\n        return False\n    rollout = flag.get("rollout")\n    if rollout is None:\n        return bool(flag.get("enabled"))\n    r = Rollout(rollout["percent"], rollout["salt"], tuple(rollout.get("regions", ())))\n    if r.regions and user.get("region") not in r.regions:\n        return False\n    return bucket(r.salt, user["id"]) < r.percent * 100\n`,
    testPath: 'tests/test_rollout.py',
    tests: [
      'test_zero_percent_nobody',
      'test_hundred_percent_everybody',
      'test_bucket_stable',
      'test_bucket_differs_by_salt',
      'test_increase_keeps_users',
      'test_region_filter_excludes',
      'test_region_filter_includes',
      'test_kill_overrides_rollout',
      'test_no_rollout_uses_enabled',
      'test_fractional_percent',
      'test_distribution_close_to_percent',
      'test_missing_region_excluded',
    ],
    failingTest: {
      name: 'test_fractional_percent',
      detail: [
        '    def test_fractional_percent():',
        '>       assert count_enabled(percent=0.5) == pytest.approx(50, abs=15)',
        'E       assert 0 == 50 ± 15',
      ],
    },
    fix: {
      old: 'return bucket(r.salt, user["id"]) < r.percent * 100',
      new: 'return bucket(r.salt, user["id"]) < round(r.percent * 100)',
      why: 'percent was read as an int from YAML in the test fixture',
    },
    report: {
      confident: [
        {
          id: 'hashing',
          statement:
            'Bucketing is murmur3 of "salt:user_id" modulo 10000 (flagship/rollout.py:18), so assignment is stable across deploys and independent per flag.',
          cues: ['murmur3', 'stable across deploys'],
          provenance: ['flagship/rollout.py:18'],
        },
        {
          id: 'regions',
          statement:
            'A region filter is rollout.regions; users outside the listed regions are never in the rollout (flagship/rollout.py:29).',
          cues: ['rollout.regions', 'outside the listed regions'],
          provenance: ['flagship/rollout.py:29'],
        },
      ],
      hedge: {
        statement:
          'I could not determine whether the mobile SDKs use the same murmur3 variant; their code is in another repo.',
        claim: 'the mobile SDKs use the same murmur3 variant',
        cues: ['mobile sdks use the same murmur3 variant'],
      },
      assumption: {
        statement:
          'Assuming every user record carries a region; users without one are treated as outside any region filter.',
        claim: 'every user record carries a region',
        cues: ['every user record carries a region'],
      },
    },
    followUps: [
      {
        request: 'How do I roll the new checkout flag out to 10% of EU users only?',
        facts: [
          {
            id: 'f-regions',
            text: 'set rollout.percent to 10 and rollout.regions to the EU region; users outside the listed regions are never in the rollout',
            cues: ['rollout.regions', 'outside the listed regions'],
          },
        ],
        expectedWords: 70,
      },
      {
        request: "Will a user who is in at 10% stay in after tomorrow's deploy?",
        facts: [
          {
            id: 'f-stable',
            text: 'yes: murmur3 bucketing of salt:user_id is stable across deploys',
            cues: ['murmur3', 'stable across deploys'],
          },
        ],
        expectedWords: 50,
      },
    ],
  },
];
