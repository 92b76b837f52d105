import { formatWithOptions } from 'node:util';
import { maskSecrets } from '../core/redact.ts';

type LogFn = (message: string, ...rest: unknown[]) => void;

/** The shape both SDKs accept as their `logger` client option. */
export interface SdkLogger {
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
}

/**
 * The SDKs' own logging (ANTHROPIC_LOG / OPENAI_LOG, default level warn) through the key mask. The
 * SDKs star out auth headers but print response bodies as they came, and a server can echo the key
 * there; each line is formatted the way console would, then masked (inspect breaks a long string only
 * at its newlines, and the sent key has none, so the key is never split across lines). Written to stderr at every level,
 * so a debug log never mixes into output a script reads from stdout (`--json`, the summary table).
 */
export function maskedSdkLogger(
  provider: string,
  secrets: string[],
  write: (line: string) => void = (line) => void process.stderr.write(line),
): SdkLogger {
  const at =
    (level: keyof SdkLogger): LogFn =>
    (message, ...rest) => {
      const text = formatWithOptions({ colors: false, depth: 8 }, message, ...rest);
      write(`${provider} sdk ${level}: ${maskSecrets(text, secrets)}\n`);
    };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
