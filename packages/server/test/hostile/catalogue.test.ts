import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { cleanEnv, killAll, runCli, type ServerProcess, startServe } from '../blackbox-process.ts';
import { assertErrorAnswer } from '../openapi-validator.ts';
import { rawRequest } from '../raw-http.ts';
import { parseLogLine } from '../serve-process.ts';
import { FAKE_KEYS, HOSTILE_CASES, type HostileContext } from './cases.ts';

/** Each case connects from its own loopback address, so no case spends another's anonymous quota. */
const addressOf = (index: number) => `127.0.${3 + Math.floor(index / 250)}.${(index % 250) + 1}`;

/** What a case could have written: pets, idempotency records, key state. */
function fingerprint(file: string): string {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return JSON.stringify([
      db.prepare('SELECT count(*) AS n, max(id) AS last FROM pets').get(),
      db.prepare('SELECT count(*) AS n FROM idempotency_keys').get(),
      db.prepare('SELECT id, revoked_at, banned_until FROM api_keys ORDER BY id').all(),
    ]);
  } finally {
    db.close();
  }
}

describe(
  `hostile-input catalogue: ${HOSTILE_CASES.length} requests, exact answers, nothing written`,
  { timeout: 120_000 },
  () => {
    const children = new Set<ChildProcess>();
    let dir: string;
    let database: string;
    let server: ServerProcess;
    let port: number;
    let context: HostileContext;

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'petstore-hostile-'));
      database = join(dir, 'petstore.db');
      const env = cleanEnv({ DATABASE_URL: database, LOG_LEVEL: 'trace' });
      await runCli(['migrate'], env); // keys create never makes a database
      const created = async (args: string[], settings = env) => {
        const result = await runCli(['keys', 'create', ...args, '--json'], settings);
        assert.equal(result.code, 0, result.stderr);
        return JSON.parse(result.stdout.trimEnd().split('\n').at(-1)!) as { id: string; key: string };
      };
      const enterprise = await created([
        '--plan',
        'enterprise',
        '--per-minute',
        '1000000',
        '--per-day',
        '10000000',
      ]);
      const revoked = await created(['--plan', 'free']);
      assert.equal((await runCli(['keys', 'revoke', revoked.id], env)).code, 0);
      const live = await created(['--plan', 'free'], { ...env, PETSTORE_ENV: 'production' });
      server = await startServe(env, children);
      port = Number(new URL(server.url).port);
      // Three pets to page through, and a cursor issued for them.
      for (const name of ['a', 'b', 'c']) {
        const response = await fetch(`${server.url}/v1/pets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${enterprise.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name, categoryId: 1 }),
        });
        assert.equal(response.status, 201);
      }
      const page = await fetch(`${server.url}/v1/pets?limit=1`, {
        headers: { authorization: `Bearer ${enterprise.key}` },
      });
      const cursor = /cursor=([^>&]+)/.exec(page.headers.get('link') ?? '')![1]!;
      context = { key: enterprise.key, revokedKey: revoked.key, liveKey: live.key, cursor };
    });
    after(async () => {
      killAll(children);
      await rm(dir, { recursive: true, force: true });
    });

    for (const [index, hostile] of HOSTILE_CASES.entries()) {
      it(hostile.name, async () => {
        const before = fingerprint(database);
        const response = await rawRequest({
          port,
          send: hostile.bytes(context),
          localAddress: addressOf(index),
          firstResponseOnly: true,
          waitMs: 5_000,
        });
        if (hostile.code === undefined) {
          assert.equal(response.status, hostile.status, response.body.slice(0, 300));
        } else {
          const body = assertErrorAnswer(response, hostile.status, hostile.code);
          assert.equal(body.param, hostile.param, `param of ${response.body.slice(0, 300)}`);
        }
        assert.equal(fingerprint(database), before, 'nothing was written');
        // Its log line, for the search below (answered before the line is written).
        const requestId = response.headers['x-request-id'];
        assert.ok(requestId, 'every answer carries X-Request-Id');
        await server.waitForLine((line) => parseLogLine(line)?.reqId === requestId, 5_000);
      });
    }

    it('the whole catalogue at LOG_LEVEL=trace → no log line holds any key it used, an Authorization header or a raw packet', async () => {
      const secrets = [context.key, context.revokedKey, context.liveKey, ...Object.values(FAKE_KEYS)];
      assert.ok(server.lines.length > HOSTILE_CASES.length, 'every answer was logged');
      for (const [number, line] of server.lines.entries()) {
        for (const secret of secrets) {
          assert.equal(
            line.includes(secret) || line.includes(secret.slice(8, 30)),
            false,
            `log line ${number} holds ${secret}: ${line.slice(0, 200)}`,
          );
        }
        assert.doesNotMatch(line, /authorization|bearer|rawPacket/i, `log line ${number}`);
        assert.ok(parseLogLine(line), `log line ${number} is JSON`);
      }
    });
  },
);
