// A mail server for trying mail locally: `npm run -s mail-sink [-- --port 2525]` listens on loopback,
// takes any mail without credentials or TLS, and prints each one it receives (docs/accounts.md). What
// stops it (a bad option, a port it cannot have) is one line on standard error and an exit status:
// 2 for the words, 1 for the port.
import { parseArgs } from 'node:util';
import { startMailSink } from '../packages/server/test/mail-sink.ts';

const USAGE = 'usage: npm run -s mail-sink [-- --port N]';

function stop(message: string, status: number): never {
  process.stderr.write(`mail-sink: ${message}\n`);
  process.exit(status);
}

function readPort(): number {
  let text: string;
  try {
    text = parseArgs({ options: { port: { type: 'string', default: '2525' } } }).values.port;
  } catch (error) {
    return stop(`${(error as Error).message.split('\n')[0]}; ${USAGE}`, 2);
  }
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65_535)
    stop(`--port must be a port number from 0 to 65535, got ${JSON.stringify(text)}; ${USAGE}`, 2);
  return Number(text);
}

const port = readPort();
const sink = await startMailSink({ tls: 'none', port }).catch((error: NodeJS.ErrnoException) => {
  if (error.code === 'EADDRINUSE')
    stop(`port ${port} on 127.0.0.1 is taken (another mail-sink?): stop that one, or pass --port N`, 1);
  if (error.code === 'EACCES') stop(`port ${port} needs privileges: pass --port N above 1023`, 1);
  return stop(error.message, 1);
});
console.log(`listening: PETSTORE_SMTP_URL=${sink.url}`);
for (;;) {
  const mail = await sink.next();
  console.log(`\n--- mail from ${mail.from} to ${mail.to.join(', ')}: ${mail.subject}\n${mail.text}`);
}
