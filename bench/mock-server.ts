import { startMockLlmServer } from '../test/support/mock-llm-server.ts';

/**
 * The loopback mock (test/support/mock-llm-server.ts) as a process of its own, so that under the
 * throughput bench it does not share the harness's event loop. Prints one JSON line {url, port} on
 * stdout when listening; exits on SIGTERM/SIGINT or when stdin closes (its parent went away).
 *   node --import tsx bench/mock-server.ts --latency 50 [--validate] [--rps R [--burst B] [--rate-headers on429|off]]
 */
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const server = await startMockLlmServer({
  latencyMs: Number(flag('latency') ?? 0),
  validate: args.includes('--validate'),
  rateLimit: flag('rps')
    ? {
        rps: Number(flag('rps')),
        ...(flag('burst') ? { burst: Number(flag('burst')) } : {}),
        // on429: the allowance headers on 429s only (some OpenAI-compatible servers); off: none.
        headers: flag('rate-headers') === 'on429' ? ('on429' as const) : flag('rate-headers') !== 'off',
      }
    : undefined,
});
process.stdout.write(`${JSON.stringify({ url: server.url, port: server.port })}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.resume();
