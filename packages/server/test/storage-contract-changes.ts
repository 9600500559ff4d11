import assert from 'node:assert/strict';
import { it } from 'node:test';
import { verifiedDomain } from './dashboard-forms.ts';
import { newKey } from './storage-contract-keys.ts';
import { project } from './storage-contract-projects.ts';
import type { StorageFixture } from './storage-contract.ts';

const T0 = Date.UTC(2026, 0, 1);

/** The change feed (migration 090): every write that can move a host is in it, from any instance. */
export function changeContract(fixture: () => StorageFixture): void {
  const changesAfter = async (seq: number) =>
    (await fixture().storage.changes.since(seq, 100)).map(({ projectId, slug, hostname }) => ({
      projectId,
      slug,
      hostname,
    }));

  it('changes: a project created, renamed and re-planned → one change each, in order, read by any instance', async () => {
    const { storage } = fixture();
    const start = await storage.changes.newest();
    await storage.projects.create(project('acme'));
    await storage.projects.rename('acme', 'Acme');
    await storage.projects.setPlan('acme', 'pro', null, null);
    const expected = { projectId: 'prj_acme', slug: 'acme', hostname: null };
    assert.deepEqual(await changesAfter(start), [expected, expected, expected]);
    const other = await fixture().open();
    assert.deepEqual(
      (await other.changes.since(start, 100)).map((change) => change.slug),
      ['acme', 'acme', 'acme'],
    );
    const seqs = (await storage.changes.since(start, 100)).map((change) => change.seq);
    assert.deepEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
      'ascending',
    );
    assert.equal(await storage.changes.newest(), seqs.at(-1));
    assert.deepEqual(await storage.changes.since(seqs.at(-1)!, 100), [], 'nothing after the newest');
    assert.equal((await storage.changes.since(start, 2)).length, 2, 'at most the limit');
  });

  it('changes: a domain added, verified, made primary and removed → a change each; a re-check that changes nothing → none', async () => {
    const { storage } = fixture();
    await storage.projects.create(project('acme', { plan: 'pro' }));
    const start = await storage.changes.newest();
    await storage.domains.add(
      verifiedDomain('docs.example.com', 'prj_acme', T0, {
        state: 'pending',
        primary: false,
        verifiedAt: null,
      }),
    );
    const domain = { projectId: 'prj_acme', slug: null, hostname: 'docs.example.com' };
    assert.deepEqual(await changesAfter(start), [domain]);
    const check = {
      state: 'pending' as const,
      reason: null,
      checks: { records: [], warnings: [] },
      checkedAt: T0 + 1,
      nextCheckAt: T0 + 60_000,
      verifiedAt: null,
      wrongSince: null,
    };
    const afterAdd = await storage.changes.newest();
    await storage.domains.recordCheck('docs.example.com', check, 'prj_acme');
    await storage.domains.claimDue(T0 + 120_000, T0 + 180_000, 10);
    assert.deepEqual(await changesAfter(afterAdd), [], 'a re-check and a lease move nothing');
    await storage.domains.recordCheck(
      'docs.example.com',
      { ...check, state: 'verified', verifiedAt: T0 + 2 },
      'prj_acme',
    );
    assert.ok((await changesAfter(afterAdd)).length >= 1, 'verified');
    const afterVerify = await storage.changes.newest();
    assert.equal(await storage.domains.remove('prj_acme', 'docs.example.com', T0 + 3), true);
    assert.deepEqual(await changesAfter(afterVerify), [domain]);
  });

  it('changes: a key revoked, re-planned, limited, or banned and unbanned → a change naming it; its use → none', async () => {
    const { storage } = fixture();
    await storage.keys.create(newKey('key_1'));
    const keyChanges = async (seq: number) =>
      (await storage.changes.since(seq, 100)).map(({ keyId, projectId, hostname }) => ({
        keyId,
        projectId,
        hostname,
      }));
    const start = await storage.changes.newest();
    assert.deepEqual(await keyChanges(start), [], 'created: no change (its secret was never presented)');
    await storage.keys.touch([{ id: 'key_1', at: T0 + 5 }]);
    assert.deepEqual(await keyChanges(start), [], 'last used: no change');
    await storage.keys.setPlan('key_1', 'pro', 600, null);
    await storage.keys.setOwnLimits('key_1', 10, null);
    await storage.keys.ban('key_1', T0 + 60_000);
    await storage.keys.unban('key_1', T0 + 1);
    await storage.keys.revoke('key_1', T0 + 2);
    const one = { keyId: 'key_1', projectId: null, hostname: null };
    assert.deepEqual(await keyChanges(start), [one, one, one, one, one]);
    const other = await fixture().open();
    assert.deepEqual(
      (await other.changes.since(start, 100)).map((change) => change.keyId),
      ['key_1', 'key_1', 'key_1', 'key_1', 'key_1'],
      'read by any instance',
    );
    const afterRevoke = await storage.changes.newest();
    await storage.changes.publish({ keyId: 'key_2' });
    assert.deepEqual(await keyChanges(afterRevoke), [{ keyId: 'key_2', projectId: null, hostname: null }]);
  });

  it('changes: publish appends what it is told; prune deletes only what is older, at most the limit', async () => {
    const { storage } = fixture();
    const start = await storage.changes.newest();
    await storage.changes.publish({ hostname: 'www.example.com' });
    assert.deepEqual(await changesAfter(start), [
      { projectId: null, slug: null, hostname: 'www.example.com' },
    ]);
    assert.equal(await storage.changes.prune(0, 10), 0, 'nothing recorded before 1970');
    assert.equal(await storage.changes.prune(Date.now() + 60_000, 10), 1);
    assert.deepEqual(await changesAfter(start), []);
    await storage.changes.publish({ slug: 'next' });
    const [next] = await storage.changes.since(start, 10);
    assert.ok(next!.seq > start, 'a sequence number is never reused, even once pruned');
  });
}
