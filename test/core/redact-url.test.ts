import { describe, expect, it } from 'vitest';
import { envSecrets, maskAnswer, maskSecrets, redact, urlCredentials } from '../../harness/core/redact.ts';
import { toProviderError } from '../../harness/providers/wire-client.ts';

/**
 * Credentials in a base URL (issue 28 #11): userinfo and key-like query values are masked wherever
 * text is printed or stored, the values themselves are masked when they appear bare, and a key the
 * server echoes inside an answer is masked in the answer.
 */
describe('URL credentials are masked', () => {
  const cases: [string, string][] = [
    ['http://user:pw@127.0.0.1:8080/v1', 'http://[redacted]@127.0.0.1:8080/v1'],
    ['https://sk-abcdefgh@proxy.example/v1', 'https://[redacted]@proxy.example/v1'],
    ['connect to HTTPS://a:b@h/x failed', 'connect to HTTPS://[redacted]@h/x failed'],
    ['https://h/openai?api-key=abc123&x=1', 'https://h/openai?api-key=[redacted]&x=1'],
    ['https://h/v1?api_key=abc&key=zz#frag', 'https://h/v1?api_key=[redacted]&key=[redacted]#frag'],
    ['https://h/b?sv=1&sig=SAS%2Fsig&se=2', 'https://h/b?sv=1&sig=[redacted]&se=2'],
    ['"url":"http://h/?token=t0k3n"', '"url":"http://h/?token=[redacted]"'],
    ['no url here: user@example.com key=value', 'no url here: user@example.com key=value'],
    ['https://h/v1?monkey=1&keys=2', 'https://h/v1?monkey=1&keys=2'],
  ];
  it.each(cases)('%s', (text, masked) => {
    expect(maskSecrets(text, [])).toBe(masked);
  });

  it('the base URL variables’ credentials are secrets too, masked where they appear bare', () => {
    const env = {
      OPENAI_BASE_URL: 'http://proxyuser:pr0xy-passw0rd%21@127.0.0.1:9/v1?api-key=azure-key-123456',
      ANTHROPIC_API_KEY: 'sk-ant-test-0123456789',
    };
    expect(urlCredentials(env.OPENAI_BASE_URL)).toEqual(
      expect.arrayContaining(['pr0xy-passw0rd%21', 'pr0xy-passw0rd!', 'azure-key-123456']),
    );
    const secrets = envSecrets(env);
    expect(maskSecrets('echo pr0xy-passw0rd! and azure-key-123456 and sk-ant-test-0123456789', secrets)).toBe(
      'echo [redacted] and [redacted] and [redacted]',
    );
    expect(JSON.stringify(redact({ baseURL: env.OPENAI_BASE_URL }, secrets))).not.toMatch(/pr0xy|azure-key/);
  });

  it('a provider error names the endpoint without its credentials (the exit-4 message prints err.baseURL)', () => {
    const sdk = {
      APIConnectionError: Error,
      APIConnectionTimeoutError: Error,
      APIUserAbortError: Error,
    } as never;
    const tag = { attempts: 1 } as never;
    const err = toProviderError(
      'openai',
      'gpt-test',
      Object.assign(new Error('401 bad key'), { status: 401 }),
      tag,
      'http://user:hunter2-secret@127.0.0.1:1/v1?api-key=k-123456789',
      sdk,
    );
    expect(err.baseURL).toBe('http://[redacted]@127.0.0.1:1/v1?api-key=[redacted]');
  });
});

describe('a configured key echoed in an answer is masked in the answer', () => {
  const key = 'sk-test-echoed-key-0001';
  it('text, reasoning and tool-call arguments; the same object when there is nothing to mask', () => {
    const r = {
      text: `your key is ${key}`,
      reasoning: `saw ${key}`,
      toolCalls: [{ id: 'c1', name: 'note', input: { value: key, nested: [`x${key}y`] } }],
      stopReason: 'end_turn',
    };
    const masked = maskAnswer(r, [key]);
    expect(JSON.stringify(masked)).not.toContain(key);
    expect(masked.text).toBe('your key is [redacted]');
    expect(masked.toolCalls[0]!.input).toEqual({ value: '[redacted]', nested: ['x[redacted]y'] });
    const clean = { text: 'nothing', toolCalls: [] };
    expect(maskAnswer(clean, [key])).toBe(clean);
  });
});
