import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CheckResult, CustomDomain } from '../src/features/domains/domain-repository.ts';
import { serviceSettings } from '../src/features/domains/settings.ts';
import type { StorageFixture } from './storage-contract.ts';
import { project } from './storage-contract-projects.ts';

const T0 = Date.UTC(2026, 0, 1);

const domain = (
  hostname: string,
  projectId: string,
  overrides: Partial<CustomDomain> = {},
): CustomDomain => ({
  hostname,
  projectId,
  apex: false,
  token: `token-${hostname}`,
  state: 'pending',
  reason: 'no CNAME yet',
  primary: false,
  checks: {
    records: [{ type: 'CNAME', name: hostname, value: 'acme.sites.test', ok: false, seen: [] }],
    warnings: [],
  },
  createdAt: T0,
  verifiedAt: null,
  checkedAt: null,
  nextCheckAt: T0,
  checkError: null,
  checkFailures: 0,
  wrongSince: null,
  proofTxt: false,
  failedAt: null,
  ...overrides,
});

const verified = (at: number): CheckResult => ({
  state: 'verified',
  reason: null,
  checks: {
    records: [{ type: 'CNAME', name: 'x', value: 'acme.sites.test', ok: true, seen: ['acme.sites.test'] }],
    warnings: [],
  },
  checkedAt: at,
  nextCheckAt: at + 3_600_000,
  verifiedAt: at,
  wrongSince: null,
});

async function twoProjects(fixture: () => StorageFixture) {
  const { storage } = fixture();
  await storage.projects.create(project('acme', { plan: 'pro' }));
  await storage.projects.create(project('beta', { plan: 'pro' }));
  return storage;
}

export function domainContract(fixture: () => StorageFixture): void {
  it('domains.add → stored as given; the same hostname for the same project → undefined, for another → a claim of its own', async () => {
    const storage = await twoProjects(fixture);
    const docs = domain('docs.example.com', 'prj_acme', {
      apex: true,
      checks: { records: [], warnings: ['caa ✓'] },
    });
    assert.deepEqual(await storage.domains.add(docs), docs);
    assert.deepEqual(await storage.domains.get('docs.example.com'), docs);
    const claim = domain('docs.example.com', 'prj_beta', { createdAt: T0 + 1, proofTxt: true });
    assert.deepEqual(await storage.domains.add(claim), claim);
    assert.equal(await storage.domains.add(domain('docs.example.com', 'prj_acme')), undefined);
    assert.equal((await storage.domains.get('docs.example.com'))!.projectId, 'prj_acme', 'the oldest');
    assert.deepEqual(await storage.domains.get('docs.example.com', 'prj_beta'), claim);
    assert.equal(await storage.domains.claimedByOthers('docs.example.com', 'prj_acme'), true);
    assert.equal(await storage.domains.claimedByOthers('other.example.com', 'prj_acme'), false);
    assert.equal(await storage.domains.countForProject('prj_acme'), 1);
  });

  it('recordCheck verified by a claimant → the other project’s verified claim ends first (one served claim per name); releaseFailed frees it later', async () => {
    const storage = await twoProjects(fixture);
    await storage.domains.add(domain('docs.example.com', 'prj_acme'));
    await storage.domains.add(domain('docs.example.com', 'prj_beta', { proofTxt: true }));
    await storage.domains.recordCheck('docs.example.com', verified(T0), 'prj_acme');
    assert.equal(await storage.domains.primaryOf('prj_acme'), 'docs.example.com');
    await storage.domains.recordCheck(
      'docs.example.com',
      { ...verified(T0 + 5), endedReason: 'proved elsewhere' },
      'prj_beta',
    );
    const ended = (await storage.domains.get('docs.example.com', 'prj_acme'))!;
    assert.deepEqual(
      [ended.state, ended.reason, ended.primary, ended.proofTxt, ended.failedAt],
      ['failed', 'proved elsewhere', false, true, T0 + 5],
    );
    assert.equal(await storage.domains.primaryOf('prj_acme'), undefined);
    assert.deepEqual(await storage.domains.listServed(), ['docs.example.com']);
    assert.equal((await storage.domains.get('docs.example.com'))!.projectId, 'prj_beta', 'the served claim');
    assert.equal(await storage.domains.releaseFailed(T0 + 4, T0 + 10), 0);
    assert.equal(await storage.domains.releaseFailed(T0 + 5, T0 + 10), 1);
    assert.equal(await storage.domains.get('docs.example.com', 'prj_acme'), undefined);
    assert.equal((await storage.domains.get('docs.example.com', 'prj_beta'))!.state, 'verified');
  });

  it('listForProject → only that project, in the order added', async () => {
    const storage = await twoProjects(fixture);
    await storage.domains.add(domain('b.example.com', 'prj_acme', { createdAt: T0 + 1 }));
    await storage.domains.add(domain('a.example.com', 'prj_acme', { createdAt: T0 + 2 }));
    await storage.domains.add(domain('c.example.com', 'prj_beta'));
    assert.deepEqual(
      (await storage.domains.listForProject('prj_acme')).map((d) => d.hostname),
      ['b.example.com', 'a.example.com'],
    );
  });

  it('recordCheck verified → the first verified domain becomes primary, the second does not', async () => {
    const storage = await twoProjects(fixture);
    await storage.domains.add(domain('one.example.com', 'prj_acme'));
    await storage.domains.add(domain('two.example.com', 'prj_acme'));
    assert.equal(await storage.domains.recordCheck('one.example.com', verified(T0 + 5)), true);
    assert.equal(await storage.domains.recordCheck('two.example.com', verified(T0 + 6)), true);
    const [one, two] = await storage.domains.listForProject('prj_acme');
    assert.deepEqual(
      [one!.state, one!.primary, one!.verifiedAt, one!.checks.records[0]!.ok],
      ['verified', true, T0 + 5, true],
    );
    assert.deepEqual([two!.state, two!.primary], ['verified', false]);
    assert.equal(await storage.domains.recordCheck('nope.example.com', verified(T0)), false);
  });

  it('recordUnanswered → only the error, the failure count and the next check change; the next answer clears them', async () => {
    const storage = await twoProjects(fixture);
    await storage.domains.add(domain('one.example.com', 'prj_acme'));
    await storage.domains.recordCheck('one.example.com', { ...verified(T0), wrongSince: T0 });
    const before = (await storage.domains.get('one.example.com'))!;
    const unanswered = {
      checkError: 'no answer from DNS in time',
      checkFailures: 2,
      nextCheckAt: T0 + 120_000,
    };
    assert.equal(await storage.domains.recordUnanswered('one.example.com', unanswered), true);
    assert.deepEqual(await storage.domains.get('one.example.com'), { ...before, ...unanswered });
    assert.equal(await storage.domains.primaryOf('prj_acme'), 'one.example.com');
    await storage.domains.recordCheck('one.example.com', verified(T0 + 9));
    const answered = (await storage.domains.get('one.example.com'))!;
    assert.deepEqual(
      [answered.checkError, answered.checkFailures, answered.wrongSince, answered.checkedAt],
      [null, 0, null, T0 + 9],
    );
    assert.equal(await storage.domains.recordUnanswered('nope.example.com', unanswered), false);
  });

  it("the service's settings: the last recorded are read back whole; none recorded → undefined", async () => {
    const storage = await twoProjects(fixture);
    const settings = serviceSettings(storage.sql);
    assert.equal(await settings.read(), undefined);
    await settings.record(
      {
        servers: ['127.0.0.1:5353'],
        siteDomain: 'old.test',
        apiHost: null,
        caIdentity: 'ca.test',
        enterpriseDomains: null,
      },
      T0,
    );
    const latest = {
      servers: ['192.0.2.53', '[2001:db8::53]:53'],
      siteDomain: 'sites.example.com',
      apiHost: 'api.example.com',
      caIdentity: 'letsencrypt.org',
      enterpriseDomains: 500,
    };
    await settings.record(latest, T0 + 1);
    assert.deepEqual(await settings.read(), { ...latest, recordedAt: T0 + 1 });
  });

  it('setPrimary → moves to another verified domain of the project only', async () => {
    const storage = await twoProjects(fixture);
    await storage.domains.add(domain('one.example.com', 'prj_acme'));
    await storage.domains.add(domain('two.example.com', 'prj_acme'));
    await storage.domains.add(domain('pending.example.com', 'prj_acme'));
    await storage.domains.add(domain('theirs.example.com', 'prj_beta'));
    await storage.domains.recordCheck('one.example.com', verified(T0));
    await storage.domains.recordCheck('two.example.com', verified(T0));
    await storage.domains.recordCheck('theirs.example.com', verified(T0));
    assert.equal(await storage.domains.setPrimary('prj_acme', 'two.example.com'), true);
    const primaries = (await storage.domains.listForProject('prj_acme'))
      .filter((d) => d.primary)
      .map((d) => d.hostname);
    assert.deepEqual(primaries, ['two.example.com']);
    assert.equal(await storage.domains.setPrimary('prj_acme', 'pending.example.com'), false);
    assert.equal(await storage.domains.setPrimary('prj_acme', 'theirs.example.com'), false);
    assert.equal(
      (await storage.domains.get('theirs.example.com'))!.primary,
      true,
      "beta's own primary is untouched",
    );
  });

  it('claimDue → due domains once, pushed to the lease; two claimers at once never get the same domain', async () => {
    const storage = await twoProjects(fixture);
    for (let i = 0; i < 10; i++)
      await storage.domains.add(domain(`d${i}.example.com`, 'prj_acme', { nextCheckAt: T0 + i }));
    await storage.domains.add(domain('later.example.com', 'prj_acme', { nextCheckAt: T0 + 1_000 }));
    const other = await fixture().open();
    const [a, b] = await Promise.all([
      storage.domains.claimDue(T0 + 100, T0 + 500, 6),
      other.domains.claimDue(T0 + 100, T0 + 500, 6),
    ]);
    const claimed = [...a, ...b].map((d) => d.hostname);
    assert.equal(new Set(claimed).size, claimed.length, 'no domain claimed twice');
    assert.ok(!claimed.includes('later.example.com'));
    const rest = await storage.domains.claimDue(T0 + 100, T0 + 500, 20);
    assert.deepEqual(
      [...claimed, ...rest.map((d) => d.hostname)].sort(),
      Array.from({ length: 10 }, (_, i) => `d${i}.example.com`).sort(),
    );
    assert.ok([...a, ...b, ...rest].every((d) => d.nextCheckAt === T0 + 500));
    assert.deepEqual(await storage.domains.claimDue(T0 + 100, T0 + 500, 20), []);
  });

  it('remove → only the project own domain; listServed → verified domains of paid projects only', async () => {
    const storage = await twoProjects(fixture);
    await storage.projects.create(project('free', { plan: 'free' }));
    await storage.domains.add(domain('served.example.com', 'prj_acme'));
    await storage.domains.add(domain('waiting.example.com', 'prj_acme'));
    await storage.domains.add(domain('unpaid.example.com', 'prj_free'));
    await storage.domains.recordCheck('served.example.com', verified(T0));
    await storage.domains.recordCheck('unpaid.example.com', verified(T0));
    assert.deepEqual(await storage.domains.listServed(), ['served.example.com']);
    assert.equal(await storage.domains.remove('prj_beta', 'served.example.com', T0), false);
    assert.equal(await storage.domains.remove('prj_acme', 'served.example.com', T0), true);
    assert.equal(await storage.domains.get('served.example.com'), undefined);
    assert.deepEqual(await storage.domains.listServed(), []);
  });

  it('primaryOf → the primary while verified, else the oldest verified; removing the primary promotes that one', async () => {
    const storage = await twoProjects(fixture);
    assert.equal(await storage.domains.primaryOf('prj_acme'), undefined);
    await storage.domains.add(domain('one.example.com', 'prj_acme', { createdAt: T0 + 1 }));
    await storage.domains.add(domain('two.example.com', 'prj_acme', { createdAt: T0 + 2 }));
    await storage.domains.add(domain('three.example.com', 'prj_acme', { createdAt: T0 + 3 }));
    await storage.domains.recordCheck('two.example.com', verified(T0));
    await storage.domains.recordCheck('three.example.com', verified(T0));
    await storage.domains.recordCheck('one.example.com', verified(T0));
    assert.equal(await storage.domains.primaryOf('prj_acme'), 'two.example.com', 'the first verified');
    await storage.domains.setPrimary('prj_acme', 'three.example.com');
    assert.equal(await storage.domains.primaryOf('prj_acme'), 'three.example.com');
    await storage.domains.recordCheck('three.example.com', {
      ...verified(T0),
      state: 'failed',
      reason: 'gone',
    });
    assert.equal(
      await storage.domains.primaryOf('prj_acme'),
      'one.example.com',
      'records gone: the oldest verified',
    );
    await storage.domains.recordCheck('three.example.com', verified(T0 + 9));
    assert.equal(
      await storage.domains.primaryOf('prj_acme'),
      'three.example.com',
      'records back: primary again',
    );
    await storage.domains.remove('prj_acme', 'three.example.com', T0 + 10);
    assert.equal(await storage.domains.primaryOf('prj_acme'), 'one.example.com');
    const flagged = (await storage.domains.listForProject('prj_acme')).filter((d) => d.primary);
    assert.deepEqual(
      flagged.map((d) => d.hostname),
      ['one.example.com'],
      'the promoted domain is the primary now',
    );
    assert.equal(await storage.domains.primaryOf('prj_beta'), undefined);
  });
}
