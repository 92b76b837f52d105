import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { benchConfig, parse, type BenchArgs } from './throughput-args.ts';
import type { ResolvedConfig } from '../harness/config/types.ts';
import { createProviders } from '../harness/providers/index.ts';
import type { ModelRequest } from '../harness/core/index.ts';
import { runExperiment, type RunOutcome } from '../harness/runner/run.ts';
import { freshDist } from '../bin/dist.js';

/**
 * Throughput of the harness's call path: N cells, each exactly one receiver call (one full-transcript
 * arm, the criterion judge off, survival and checks deterministic), through the real `openai`
 * provider and SDK against a loopback mock with fixed latency L in its own process, C cells in flight.
 * ideal = ceil(N/C)·L; ratio = wall/ideal. CPU per call is this process's user+system CPU over the
 * measured run divided by N (runner, strategy, SDK, transport, cache, journal, reports — everything).
 *
 *   npm run bench -- --n 2000 --concurrency 64 --latency 50 [--base-url URL] [--no-cache] [--warmup 50]
 *                    [--floor] [--provider-only] [--transport node|fetch] [--profile FILE.cpuprofile] [--keep]
 *
 * Under a rate limit (--rps R [--burst B] [--rate-limits off] [--rate-headers on429|off]): the mock admits R requests/s per model
 * (a token bucket of B, default R) and answers the rest 429 with retry-after and x-ratelimit-* headers;
 * the line adds the floor N/R, wall/floor and the 429s the mock answered.
 */
// The package root, from the sources (bench/) and from the bundle (dist/) alike.
const root = fileURLToPath(new URL('..', import.meta.url));

export async function main(argv: string[]): Promise<number> {
  const a = parse(argv);
  const mock = a.baseUrl ? undefined : await startMockProcess(a);
  const base = a.baseUrl ?? `${mock!.url}/v1`;
  const work = mkdtempSync(join(tmpdir(), 'handoff-bench-'));
  // The bench is a script, not library code: it points the openai provider at the server it uses.
  process.env.OPENAI_BASE_URL = base;
  if (mock || !process.env.OPENAI_API_KEY) process.env.OPENAI_API_KEY = 'bench-key';
  try {
    const config = (seed: number, reps: number, concurrency: number) =>
      benchConfig(a, root, work, seed, reps, concurrency);
    if (a.warmup > 0) await runExperiment({ config: config(1, a.warmup, a.concurrency) });
    if (a.floor) process.stdout.write(`${await floorLine(`${base}/chat/completions`, a)}\n`);
    if (a.providerOnly) process.stdout.write(`${await providerLine(config(3, 1, a.concurrency), a)}\n`);
    if (mock) await mockControl(`${mock.url}/__reset`, 'POST');
    const m = await measure(
      (cellsDone) =>
        runExperiment({ config: config(2, a.n, a.concurrency), reporters: [{ onRunEnd: cellsDone }] }),
      a.profile,
    );
    const stats = mock
      ? ((await mockControl(`${mock.url}/__stats`, 'GET')) as {
          requests: number;
          maxInflight: number;
          byStatus: Record<string, number>;
        })
      : undefined;
    const errors = m.outcome.rows.filter((r) => r.status === 'error').length;
    process.stdout.write(`${resultLine(a, m, stats, errors)}\n`);
    if (a.rps) process.stdout.write(`${rateLimitLine(a, m.wall, stats?.byStatus ?? {}, errors)}\n`);
    return errors === 0 ? 0 : 1;
  } finally {
    mock?.stop();
    if (!a.keep) rmSync(work, { recursive: true, force: true });
  }
}

/** The bench's one line: wall against ideal, memory, requests, errors, CPU per call (whole run and cells). */
function resultLine(
  a: BenchArgs,
  m: Awaited<ReturnType<typeof measure>>,
  stats: { requests: number; maxInflight: number } | undefined,
  errors: number,
): string {
  const ideal = (Math.ceil(a.n / a.concurrency) * a.latency) / 1000;
  const rss = process.resourceUsage().maxRSS / 1024;
  const calls = m.outcome.rows.reduce((n, r) => n + r.model_calls, 0);
  const perCall = (us: number) => (us / 1000 / a.n).toFixed(3);
  return (
    `handoff-eval N=${a.n} C=${a.concurrency} latency=${a.latency}ms wall=${m.wall.toFixed(2)}s ideal=${ideal.toFixed(2)}s ratio=${(m.wall / ideal).toFixed(2)} ` +
    `maxRSS=${rss.toFixed(0)}MB requests=${stats?.requests ?? calls} errors=${errors} max_inflight=${stats?.maxInflight ?? 'n/a'} ` +
    `cpu_per_call=${perCall(m.cpuUs)}ms main_thread_cpu_per_call=${m.mainCpuUs === null ? 'n/a' : `${perCall(m.mainCpuUs)}ms`} ` +
    `cells_wall=${m.cellsWall.toFixed(2)}s cells_ratio=${(m.cellsWall / ideal).toFixed(2)} cells_cpu_per_call=${perCall(m.cellsCpuUs)}ms cells_maxRSS=${m.cellsMaxRss.toFixed(0)}MB`
  );
}

/** The rate-limited scenario's figures: wall against the floor N/R, and the 429s the mock answered. */
function rateLimitLine(a: BenchArgs, wall: number, byStatus: Record<string, number>, errors: number): string {
  const floor = a.n / a.rps!;
  const limited = byStatus['429'] ?? 0;
  return (
    `rate-limit rps=${a.rps} burst=${a.burst ?? a.rps} rate_limits=${a.rateLimits} rate_headers=${a.rateHeaders} N=${a.n} C=${a.concurrency} latency=${a.latency}ms ` +
    `wall=${wall.toFixed(2)}s floor=${floor.toFixed(2)}s wall/floor=${(wall / floor).toFixed(3)} ` +
    `429s=${limited} (${((100 * limited) / a.n).toFixed(1)}% of N) errors=${errors}`
  );
}

interface Measured {
  outcome: RunOutcome;
  /** Seconds, the whole runExperiment (plan, cells, reports). */
  wall: number;
  /** This process's user+system CPU over the same span, µs (every thread: main, GC helpers, JIT). */
  cpuUs: number;
  /** Up to the last journalled cell, before the reports. */
  cellsWall: number;
  cellsCpuUs: number;
  /** Max RSS (MB) when the last cell was journalled, before the reports are written. */
  cellsMaxRss: number;
  /** CPU of the main (JavaScript) thread alone over the whole run, µs; null where /proc is missing. */
  mainCpuUs: number | null;
}

async function measure(
  run: (cellsDone: () => void) => Promise<RunOutcome>,
  profile?: string,
): Promise<Measured> {
  const profiler = profile ? await startProfile() : undefined;
  let cellsWall = 0;
  let cellsCpuUs = 0;
  let cellsMaxRss = 0;
  const main0 = mainThreadCpuUs();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const outcome = await run(() => {
    cellsWall = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(cpu0);
    cellsCpuUs = c.user + c.system;
    cellsMaxRss = process.resourceUsage().maxRSS / 1024;
  });
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (profiler) await profiler.stop(profile!);
  const main1 = mainThreadCpuUs();
  return {
    outcome,
    wall,
    cpuUs: cpu.user + cpu.system,
    cellsWall,
    cellsCpuUs,
    cellsMaxRss,
    mainCpuUs: main0 === null || main1 === null ? null : main1 - main0,
  };
}

/** utime+stime of the main thread (Linux, 10 ms ticks): what the event loop itself spent, GC helpers and JIT threads excluded. */
function mainThreadCpuUs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10_000;
  } catch {
    return null;
  }
}

/**
 * The same N calls at the same concurrency with nothing but node:http and a keep-alive agent (no SDK,
 * no harness): what this machine allows right now, to read the harness's line against.
 */
async function floorLine(url: string, a: BenchArgs): Promise<string> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: a.concurrency });
  const body = JSON.stringify({
    model: 'bench-model',
    messages: [{ role: 'user', content: 'Which merchants pin 2023-10? '.repeat(40) }],
    max_tokens: 100,
  });
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', authorization: 'Bearer bench-key' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => (JSON.parse(Buffer.concat(chunks).toString('utf8')), resolve()));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  try {
    return await referenceLine('floor(node:http)', a, one);
  } finally {
    agent.destroy();
  }
}

/**
 * The same N calls at the same concurrency through the openai provider alone (SDK + transport: no
 * runner, strategy, cache, judges or journal): what the harness adds is the difference to its line.
 */
async function providerLine(config: ResolvedConfig, a: BenchArgs): Promise<string> {
  const provider = (await createProviders(config)).openai!;
  const request: ModelRequest = {
    purpose: 'answer',
    model: 'bench-model',
    seed: 'bench',
    maxTokens: 2048,
    system:
      'You are the parent agent. A research child worked on part of your task; use what it returned to answer.',
    messages: [{ role: 'user', text: 'Which merchants pin 2023-10? '.repeat(40) }],
  };
  try {
    return await referenceLine('provider-only(openai)', a, () => provider.generate(request));
  } finally {
    await provider.close?.();
  }
}

/** N calls of `one`, C at a time, after a warm-up of up to 100: the reference lines' shared measurement. */
async function referenceLine(label: string, a: BenchArgs, one: () => Promise<unknown>): Promise<string> {
  const round = async (n: number) => {
    let i = 0;
    await Promise.all(
      Array.from({ length: a.concurrency }, async () => {
        while (i++ < n) await one();
      }),
    );
  };
  await round(Math.min(a.n, 100));
  const main0 = mainThreadCpuUs();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await round(a.n);
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const main1 = mainThreadCpuUs();
  const ideal = (Math.ceil(a.n / a.concurrency) * a.latency) / 1000;
  const mainPerCall =
    main0 === null || main1 === null ? 'n/a' : `${((main1 - main0) / 1000 / a.n).toFixed(3)}ms`;
  return `${label} N=${a.n} C=${a.concurrency} latency=${a.latency}ms wall=${wall.toFixed(2)}s ideal=${ideal.toFixed(2)}s ratio=${(wall / ideal).toFixed(2)} cpu_per_call=${((cpu.user + cpu.system) / 1000 / a.n).toFixed(3)}ms main_thread_cpu_per_call=${mainPerCall}`;
}

/**
 * The mock's control endpoints over node:http: the global fetch would load and warm undici's fetch in
 * this process just for the bench's bookkeeping (~20 MB of max RSS that a run does not have).
 */
function mockControl(url: string, method: 'GET' | 'POST'): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve(JSON.parse(body)));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The mock in a child process (its CPU is not this process's), ready when it prints its URL. */
async function startMockProcess(a: BenchArgs): Promise<{ url: string; stop(): void }> {
  const bundled = freshDist('bench-mock-server');
  const script = bundled ? [bundled] : ['--import', 'tsx', join(root, 'bench', 'mock-server.ts')];
  const limit = a.rps
    ? [
        '--rps',
        String(a.rps),
        ...(a.burst ? ['--burst', String(a.burst)] : []),
        ...(a.rateHeaders !== 'all' ? ['--rate-headers', a.rateHeaders] : []),
      ]
    : [];
  const child: ChildProcess = spawn(process.execPath, [...script, '--latency', String(a.latency), ...limit], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d) => {
      buf += String(d);
      const line = buf.split('\n')[0];
      if (buf.includes('\n')) resolve((JSON.parse(line!) as { url: string }).url);
    });
    child.on('exit', (code) => reject(new Error(`mock server exited (${code}) before listening`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

/** A CPU profile of the measured run only (--profile FILE.cpuprofile; open it in Chrome DevTools). */
async function startProfile(): Promise<{ stop(file: string): Promise<void> }> {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}
