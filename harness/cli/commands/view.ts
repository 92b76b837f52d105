import type { Command } from '../command.ts';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { InputError } from '../../core/errors.ts';
import { startViewer } from '../../view/server.ts';
import { onInterrupt } from '../interrupt.ts';

interface ViewArgs {
  runsDir: string;
  port: string;
  open: boolean;
}

export const viewCommand: Command<ViewArgs> = {
  command: 'view [runs-dir]',
  describe: 'Browse a folder of runs in a local web app (127.0.0.1 only) until Ctrl-C',
  builder: (y) =>
    y
      .positional('runs-dir', {
        type: 'string',
        default: 'runs',
        describe: 'a folder of run directories (or one run)',
      })
      .option('port', { type: 'string', default: '5151', describe: 'port on 127.0.0.1 (0: any free port)' })
      .option('open', {
        type: 'boolean',
        default: true,
        describe: 'open the browser (--no-open: only print the URL)',
      }) as never,
  handler: async (args) => {
    if (!existsSync(args.runsDir))
      throw new InputError('not_found', `${args.runsDir}: no such folder (runs-dir)`);
    const port = Number(args.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new InputError('invalid', `--port: "${args.port}" is not a port number (0–65535)`);
    let viewer;
    try {
      viewer = await startViewer({ runsDir: args.runsDir, port });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new InputError('invalid', `--port: ${port} is in use on 127.0.0.1; pick another (or 0)`);
      throw err;
    }
    process.stdout.write(`handoff-eval view: ${viewer.url} (Ctrl-C to stop)\n`);
    if (args.open) openBrowser(viewer.url);
    // Ctrl-C through the CLI's one signal route (bin/handoff-eval.js): a clean stop, exit 0.
    await new Promise<void>((resolve) => {
      const off = onInterrupt(() => {
        off();
        void viewer.close().then(resolve);
      });
    });
  },
};

/** Best effort: a machine without a desktop opener still has the printed URL. */
function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(cmd, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // the URL is printed above
  }
}
