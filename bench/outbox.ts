import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createLogMailer } from '../packages/server/src/mail/log-mailer.ts';
import type { Mailer } from '../packages/server/src/mail/mailer.ts';
import { invitationMail } from '../packages/server/src/mail/messages.ts';
import { createOutbox, OUTBOX_LEASE_TTL_MS } from '../packages/server/src/mail/outbox.ts';
import { createLease } from '../packages/server/src/maintenance/lease.ts';
import { openStoreAt, type Store } from '../packages/server/src/features/store.ts';
import { systemClock } from '../packages/server/src/time/clock.ts';
import { startMailSink } from '../packages/server/test/mail-sink.ts';

const HELP = `node bench/outbox.ts [--database sqlite|postgres] [--mails N] [--mailer log|smtp]

The mail outbox alone (mail/outbox.ts): queues --mails invitation mails (default 500), each in a
transaction of its own as a change does, then delivers them all, and prints the time a queueing
transaction takes and the mails delivered a second.
  --database   sqlite (a file in a temporary directory; default) or postgres (a schema of its own on
               PETSTORE_BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test, dropped after)
  --mailer     log (a mailer that writes nowhere: the outbox's own cost; default) or smtp (a real SMTP
               server on loopback, test/mail-sink.ts, STARTTLS: the service's whole conversation)`;

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'sqlite' },
    mails: { type: 'string', default: '500' },
    mailer: { type: 'string', default: 'log' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const mails = Number(values.mails);
if (!['sqlite', 'postgres'].includes(values.database) || !['log', 'smtp'].includes(values.mailer)) {
  console.error(HELP);
  process.exit(2);
}
if (!Number.isInteger(mails) || mails < 1) {
  console.error(`--mails must be a whole number above 0\n\n${HELP}`);
  process.exit(2);
}

const postgresUrl = process.env.PETSTORE_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `petstore_bench_outbox_${process.pid}`;
const dir = await mkdtemp(join(tmpdir(), 'petstore-bench-outbox-'));
const storage: Store =
  values.database === 'postgres'
    ? await openStoreAt(postgresUrl, { schema, poolSize: 5 })
    : await openStoreAt(join(dir, 'petstore.db'));
await storage.migrate();
const sink = values.mailer === 'smtp' ? await startMailSink() : undefined;
const mailer: Mailer = sink ? sink.mailer() : createLogMailer({ info: () => {} }, 'bench@example.test');
const quiet = { info: () => {}, warn: () => {}, error: (object: object) => console.error(object) };
const outbox = createOutbox({
  storage,
  mailer,
  log: quiet,
  clock: systemClock,
  lease: createLease({
    sql: storage.sql,
    clock: systemClock,
    name: 'outbox',
    owner: 'bench',
    ttlMs: OUTBOX_LEASE_TTL_MS,
  }),
  owner: 'bench',
  maxQueued: mails,
});

try {
  const queueStart = performance.now();
  for (let n = 0; n < mails; n++) {
    const mail = invitationMail({
      to: `invitee-${n}@example.com`,
      projectName: 'Bench',
      role: 'viewer',
      url: `http://localhost/dashboard/invitation?token=${'x'.repeat(43)}`,
      expiresAt: Date.now() + 86_400_000,
    });
    await storage.transaction((sql) => outbox.queue(sql, mail));
  }
  const queueMs = performance.now() - queueStart;
  const deliverStart = performance.now();
  outbox.wake();
  await outbox.idle();
  const deliverMs = performance.now() - deliverStart;
  const [row] = await storage.sql.all(`SELECT count(*) AS n FROM outbox WHERE state = 'sent'`);
  console.log(
    JSON.stringify({
      database: values.database,
      mailer: values.mailer,
      mails,
      sent: Number(row!.n),
      queueMsPerMail: Math.round((queueMs / mails) * 1000) / 1000,
      deliveredPerSecond: Math.round(mails / (deliverMs / 1000)),
    }),
  );
} finally {
  await outbox.close();
  await sink?.close();
  await storage.close();
  if (values.database === 'postgres') {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
  await rm(dir, { recursive: true, force: true });
}
