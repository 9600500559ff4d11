import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createOutboxRecords, type NewOutboxRow, OutboxFullError } from '../src/mail/outbox-records.ts';
import type { Store } from '../src/features/store.ts';
import type { StorageFixture } from './storage-contract.ts';
import { project } from './storage-contract-projects.ts';

const T0 = Date.UTC(2026, 0, 1);
const LEASE = 60_000;

const row = (id: string, extra: Partial<NewOutboxRow> = {}): NewOutboxRow => ({
  id,
  kind: 'mail',
  topic: 'invitation',
  subjectRef: `inv_${id}`,
  payload: { to: `${id}@example.com`, subject: 'Hello', text: 'ünïcode ✓', nested: [1, null] },
  createdAt: T0,
  ...extra,
});

const records = (storage: Store) => createOutboxRecords(storage.sql, storage.kind);

export function outboxContract(fixture: () => StorageFixture): void {
  it('outbox → a row is claimed once while its lease holds, its payload as written; once the lease ran out another claims it, and the first can record nothing', async () => {
    const outbox = records(fixture().storage);
    await outbox.add(row('a'), 100);
    const [claimed] = await outbox.claim('mail', 'one', T0, T0 + LEASE, 10);
    assert.deepEqual(claimed, {
      id: 'a',
      kind: 'mail',
      topic: 'invitation',
      subjectRef: 'inv_a',
      payload: row('a').payload,
      attempts: 1,
      createdAt: T0,
    });
    assert.deepEqual(await outbox.claim('mail', 'two', T0 + LEASE - 1, T0 + 2 * LEASE, 10), []);
    assert.deepEqual(await outbox.claim('webhook', 'two', T0 + LEASE, T0 + 2 * LEASE, 10), [], 'by kind');
    const [again] = await outbox.claim('mail', 'two', T0 + LEASE, T0 + 2 * LEASE, 10);
    assert.equal(again!.attempts, 2);
    assert.equal(await outbox.sent('a', 'one', T0 + LEASE, {}), false, 'the first claimer holds it no more');
    assert.equal(await outbox.sent('a', 'two', T0 + LEASE, { to: 'a@example.com' }), true);
    assert.deepEqual(await outbox.claim('mail', 'three', T0 + 10 * LEASE, T0 + 11 * LEASE, 10), []);
    assert.deepEqual(
      await outbox.latestFor(['inv_a']),
      new Map([['inv_a', { id: 'a', state: 'sent', attempts: 2 }]]),
    );
  });

  it('outbox → a claimer still at work extends its claims; another claims them only once the extension ran out', async () => {
    const outbox = records(fixture().storage);
    await outbox.add(row('long'), 100);
    await outbox.claim('mail', 'one', T0, T0 + LEASE, 10);
    assert.equal(await outbox.extendClaims('one', T0 + 2 * LEASE), 1);
    assert.equal(await outbox.extendClaims('two', T0 + 9 * LEASE), 0, 'only its own');
    assert.deepEqual(await outbox.claim('mail', 'two', T0 + LEASE, T0 + 3 * LEASE, 10), []);
    assert.equal((await outbox.claim('mail', 'two', T0 + 2 * LEASE, T0 + 3 * LEASE, 10)).length, 1);
  });

  it('outbox → retryAt makes it due again at that time for anyone; failed keeps it as failed with its summary; stats count what is queued', async () => {
    const outbox = records(fixture().storage);
    await outbox.add(row('r'), 100);
    await outbox.add(row('f', { createdAt: T0 + 5 }), 100);
    const claimed = await outbox.claim('mail', 'one', T0 + 5, T0 + LEASE, 10);
    assert.deepEqual(
      claimed.map((each) => each.id),
      ['r', 'f'],
      'oldest first',
    );
    assert.equal(await outbox.retryAt('r', 'one', T0 + 10_000, '451 try later'), true);
    assert.equal(await outbox.failed('f', 'one', '550 no such mailbox', { to: 'f@example.com' }), true);
    assert.equal(await outbox.retryAt('f', 'one', T0, 'late'), false, 'given up stays given up');
    assert.deepEqual(await outbox.stats(), { queued: 1, oldestQueuedAt: T0 });
    assert.equal(await outbox.nextDue('mail'), T0 + 10_000);
    assert.deepEqual(await outbox.claim('mail', 'two', T0 + 9_999, T0 + LEASE, 10), []);
    const [retried] = await outbox.claim('mail', 'two', T0 + 10_000, T0 + LEASE, 10);
    assert.equal(retried!.id, 'r');
    assert.equal(retried!.attempts, 2);
    assert.equal(await outbox.nextDue('mail'), T0 + LEASE, 'held: due when its lease ends');
    const latest = await outbox.latestFor(['inv_r', 'inv_f', 'inv_none']);
    assert.deepEqual(latest.get('inv_f'), { id: 'f', state: 'failed', attempts: 1 });
    assert.deepEqual(latest.get('inv_r'), { id: 'r', state: 'queued', attempts: 2 });
    assert.equal(latest.has('inv_none'), false);
  });

  it('outbox → release gives claimed rows back uncounted; latestFor names the newest row of a subject', async () => {
    const outbox = records(fixture().storage);
    await outbox.add(row('old', { subjectRef: 'inv_x' }), 100);
    await outbox.add(row('new', { subjectRef: 'inv_x', createdAt: T0 + 1 }), 100);
    await outbox.claim('mail', 'one', T0 + 1, T0 + LEASE, 10);
    await outbox.release('one', ['old', 'new']);
    const claimed = await outbox.claim('mail', 'two', T0 + 1, T0 + LEASE, 10);
    assert.deepEqual(
      claimed.map((each) => [each.id, each.attempts]),
      [
        ['old', 1],
        ['new', 1],
      ],
    );
    await outbox.failed('old', 'two', 'x', {});
    assert.equal((await outbox.latestFor(['inv_x'])).get('inv_x')!.id, 'new');
  });

  it('outbox → a full outbox refuses a row with OutboxFullError; a row queued in a transaction that rolls back is not there', async () => {
    const { storage } = fixture();
    const outbox = records(storage);
    await outbox.add(row('1'), 2);
    await outbox.add(row('2'), 2);
    await assert.rejects(outbox.add(row('3'), 2), OutboxFullError);
    await assert.rejects(
      storage.transaction(async (sql) => {
        await createOutboxRecords(sql, storage.kind).add(row('4'), 100);
        throw new Error('the change is refused');
      }),
      /refused/,
    );
    await storage.transaction((sql) => createOutboxRecords(sql, storage.kind).add(row('5'), 100));
    assert.deepEqual((await outbox.stats()).queued, 3);
    const [first] = await outbox.claim('mail', 'one', T0, T0 + LEASE, 1);
    await outbox.sent(first!.id, 'one', T0, {});
    await outbox.add(row('6'), 3);
  });

  it('outbox → two instances claiming at once never claim the same row', async () => {
    const { storage, open } = fixture();
    const other = await open();
    const mine = records(storage);
    for (let n = 0; n < 30; n++) await mine.add(row(`c${String(n).padStart(2, '0')}`), 100);
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        records(n % 2 ? other : storage).claim('mail', `owner${n}`, T0, T0 + LEASE, 5),
      ),
    );
    const rest = await mine.claim('mail', 'last', T0, T0 + LEASE, 100);
    const ids = [...claims.flat(), ...rest].map((each) => each.id);
    assert.equal(new Set(ids).size, ids.length, 'no row twice');
    assert.equal(ids.length, 30);
  });

  it('outbox → purge deletes rows delivered or given up before the time, never a queued one', async () => {
    const outbox = records(fixture().storage);
    for (const id of ['s', 'f', 'q']) await outbox.add(row(id), 100);
    await outbox.claim('mail', 'one', T0, T0 + LEASE, 2);
    await outbox.sent('f', 'one', T0, {});
    await outbox.failed('q', 'one', 'x', {});
    assert.equal(await outbox.purge(T0, 10), 0);
    assert.equal(await outbox.purge(T0 + 1, 10), 2);
    assert.deepEqual(await outbox.stats(), { queued: 1, oldestQueuedAt: T0 });
  });

  it('outbox → an invitation’s latest mail shows with it; renewed, it keeps its id; removed, its mail still queued goes with it (one given up stays)', async () => {
    const { storage } = fixture();
    const outbox = records(storage);
    await storage.projects.create(project('acme'));
    const invitation = (id: string) => ({
      id,
      tokenDigest: `digest-${id}`,
      projectId: 'prj_acme',
      email: `${id}@example.com`,
      role: 'viewer' as const,
      invitedBy: null,
      createdAt: T0,
      expiresAt: T0 + 1_000,
      acceptedAt: null,
    });
    for (const id of ['inv_a', 'inv_b']) await storage.projects.createInvitation(invitation(id));
    await outbox.add(row('given_up', { subjectRef: 'inv_a' }), 100);
    await outbox.claim('mail', 'one', T0, T0 + LEASE, 10);
    await outbox.failed('given_up', 'one', '550', {});
    await outbox.add(row('waiting_a', { subjectRef: 'inv_a', createdAt: T0 + 1 }), 100);
    await outbox.add(row('waiting_b', { subjectRef: 'inv_b', createdAt: T0 + 1 }), 100);
    const pending = await storage.projects.pendingInvitations('prj_acme', T0 + 1);
    assert.deepEqual(
      pending.map((each) => [each.id, each.delivery]),
      [
        ['inv_a', { id: 'waiting_a', state: 'queued', attempts: 0 }],
        ['inv_b', { id: 'waiting_b', state: 'queued', attempts: 0 }],
      ],
    );
    assert.equal(
      await storage.projects.renewInvitation(
        { ...invitation('inv_b'), tokenDigest: 'digest-new', expiresAt: T0 + 9_000 },
        T0 + 2,
      ),
      true,
    );
    assert.equal((await storage.projects.invitationByToken('digest-new'))!.expiresAt, T0 + 9_000);
    assert.equal(
      await storage.projects.invitationByToken('digest-inv_b'),
      undefined,
      'the old link works no more',
    );
    await storage.projects.revokeInvitation('prj_acme', 'inv_a');
    const left = await outbox.latestFor(['inv_a', 'inv_b']);
    assert.deepEqual(left.get('inv_a'), { id: 'given_up', state: 'failed', attempts: 1 });
    assert.equal(left.get('inv_b')!.id, 'waiting_b');
  });

  it('outbox → an account removed takes the mails about it with it, waiting or done; others stay', async () => {
    const { storage } = fixture();
    const outbox = records(storage);
    for (const id of ['acc_gone', 'acc_kept']) {
      await storage.accounts.create({
        id,
        email: `${id}@example.com`,
        passwordHash: 'scrypt$x',
        createdAt: T0,
      });
    }
    await outbox.add(row('done', { topic: 'password_reset', subjectRef: 'acc_gone' }), 100);
    await outbox.claim('mail', 'one', T0, T0 + LEASE, 10);
    await outbox.sent('done', 'one', T0, {});
    await outbox.add(row('waiting', { topic: 'password_reset', subjectRef: 'acc_gone' }), 100);
    await outbox.add(row('other', { topic: 'password_reset', subjectRef: 'acc_kept' }), 100);
    await storage.sql.run('DELETE FROM accounts WHERE id = $1', ['acc_gone']);
    assert.deepEqual([...(await outbox.latestFor(['acc_gone', 'acc_kept'])).keys()], ['acc_kept']);
  });
}
