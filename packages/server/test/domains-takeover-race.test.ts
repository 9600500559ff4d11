import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CHECK_INTERVAL_MS } from '../src/features/domains/rules.ts';
import { OPERATOR } from '../src/features/shared/actor.ts';
import { startZoneServer, type ZoneServer } from './dns-zone-server.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';
import { zoneResolver } from './zone-resolver.ts';

const HOST = 'docs.example.test';
const ACME = 'acme.sites.localhost';
const ZOO = 'zoo.sites.localhost';
const ROUNDS = 8;

/**
 * A name held by one project and proved by another, checked by both at the same moment: the holder's
 * re-check (records now wrong, so still served for an hour) and the claimant's proof. Whichever runs
 * first, the other never meets a constraint it cannot answer: no exception, no 5xx, and the prover
 * ends up serving the name.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`custom domains: a takeover checked by both projects at once (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    let zone: ZoneServer;
    let cleanup: () => Promise<void> = async () => {};

    before(async () => {
      if (skip) return;
      zone = await startZoneServer();
      zone.set(ACME, [{ type: 'A', value: '198.51.100.7' }]);
      zone.set(ZOO, [{ type: 'A', value: '198.51.100.7' }]);
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-domains-race-',
      );
      cleanup = shared.cleanup;
      app = await makeTestApp({
        storage: await shared.open(),
        dns: zoneResolver(zone),
        hosts: { siteDomain: 'sites.localhost', apiHost: 'api.localhost' },
      });
      await app.signedInMember('acme', { plan: 'pro' });
      await app.signedInMember('zoo', { plan: 'pro' });
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await zone.close();
      await cleanup();
    });

    it(
      `${ROUNDS} rounds: the holder's re-check and the claimant's proof at once → no error; the prover serves`,
      { skip },
      async () => {
        const domains = await app.app.domains.service();
        for (let round = 0; round < ROUNDS; round += 1) {
          const [holder, claimant] = round % 2 === 0 ? ['acme', 'zoo'] : ['zoo', 'acme'];
          const holderTarget = `${holder}.sites.localhost`;
          const claimantTarget = `${claimant}.sites.localhost`;
          zone.set(HOST, [{ type: 'CNAME', value: holderTarget }]);
          app.clock.advance(CHECK_INTERVAL_MS);
          if (round === 0) {
            assert.equal((await domains.add(OPERATOR, holder, HOST)).ok, true);
            assert.equal((await domains.add(OPERATOR, claimant, HOST)).ok, true);
          }
          assert.equal(
            (await app.storage.domains.get(HOST))?.projectId,
            (await app.storage.projects.bySlug(holder))!.id,
          );
          const claim = (await app.storage.domains.get(
            HOST,
            (await app.storage.projects.bySlug(claimant))!.id,
          ))!;
          zone.set(HOST, [{ type: 'CNAME', value: claimantTarget }]);
          zone.set(`_petstore.${HOST}`, [{ type: 'TXT', value: `petstore-verify=${claim.token}` }]);
          app.clock.advance(CHECK_INTERVAL_MS);
          // Either may reach the database first: the holder's check starts first in some rounds, the
          // claimant's in the others.
          const order = Math.floor(round / 2) % 2 === 0 ? [holder, claimant] : [claimant, holder];
          const outcomes = await Promise.all(order.map((slug) => domains.check(OPERATOR, slug, HOST)));
          for (const outcome of outcomes) {
            if (!outcome.ok) assert.equal(outcome.problem.code, 'conflict', JSON.stringify(outcome.problem));
          }
          const served = await app.storage.domains.get(HOST);
          assert.equal(
            served?.projectId,
            (await app.storage.projects.bySlug(claimant))!.id,
            `round ${round}`,
          );
          assert.equal(served?.state, 'verified');
        }
      },
    );
  });
}
