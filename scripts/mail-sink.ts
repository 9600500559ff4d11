// A mail server for trying mail locally: `npm run -s mail-sink [-- --port 2525]` listens on loopback,
// takes any mail without credentials or TLS, and prints each one it receives (docs/accounts.md).
import { parseArgs } from 'node:util';
import { startMailSink } from '../packages/server/test/mail-sink.ts';

const { values } = parseArgs({ options: { port: { type: 'string', default: '2525' } } });
const sink = await startMailSink({ tls: 'none', port: Number(values.port) });
console.log(`listening: PETSTORE_SMTP_URL=${sink.url}`);
for (;;) {
  const mail = await sink.next();
  console.log(`\n--- mail from ${mail.from} to ${mail.to.join(', ')}: ${mail.subject}\n${mail.text}`);
}
