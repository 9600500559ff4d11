import { text } from 'node:stream/consumers';
import type { CliIo } from './io.ts';
import { UsageError } from './usage.ts';

/** Reads a password typed at a terminal without echoing it. */
export function promptHidden(io: CliIo, question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = io.stdin;
    io.stderr.write(question);
    input.setRawMode?.(true);
    input.resume();
    input.setEncoding('utf8');
    let typed = '';
    const done = (error?: Error) => {
      input.setRawMode?.(false);
      input.pause();
      input.removeListener('data', onData);
      io.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003') return done(new UsageError('cancelled'));
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else typed += char;
      }
    };
    input.on('data', onData);
  });
}

/**
 * The new password: asked twice at a terminal (never echoed), else the first line of standard input.
 * Never a flag: flags end up in shell history and process lists.
 */
export async function readNewPassword(io: CliIo): Promise<string> {
  if (!io.stdin.isTTY) {
    const [line = ''] = (await text(io.stdin)).split(/\r?\n/, 1);
    return line;
  }
  const first = await promptHidden(io, 'Password: ');
  const second = await promptHidden(io, 'Repeat the password: ');
  if (first !== second) throw new UsageError('the two passwords differ');
  return first;
}
