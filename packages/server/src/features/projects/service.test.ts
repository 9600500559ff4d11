import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { service } from '../../../test/services.ts';
import { sharedStorage } from '../../../test/shared-storage.ts';
import type { ReversibleStore } from '../store.ts';
import { FakeClock } from '../../time/clock.ts';
import { OPERATOR } from '../shared/actor.ts';
import { createProjectService } from './service.ts';

const ACCOUNT = { kind: 'account', accountId: 'acc_x', email: 'x@example.com', address: null } as const;

/** The operator's project changes, each with its audit record in one transaction, on both databases. */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`projects service: create and setPlan (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    const clock = new FakeClock();
    let storage: ReversibleStore;
    let cleanup: () => Promise<void> = async () => {};
    const projects = () => createProjectService({ storage, clock });
    const trail = async (projectId: string) =>
      (await storage.audit.list({ projectId, limit: 10 })).map((event) => [
        event.action,
        event.target,
        event.via,
      ]);

    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-projects-',
      );
      cleanup = shared.cleanup;
      storage = (await shared.open()) as ReversibleStore;
      await storage.migrate();
    });
    after(async () => {
      if (skip) return;
      await storage.close();
      await cleanup();
    });

    it(
      'create → the project and its project_created record by the operator through the cli',
      { skip },
      async () => {
        const created = await projects().create(OPERATOR, {
          slug: 'acme',
          name: ' Acme Docs ',
          plan: 'enterprise',
          perMinute: 500,
          perDay: 90_000,
        });
        assert.ok(created.ok);
        assert.equal(created.value.name, 'Acme Docs');
        assert.equal(created.value.createdAt, clock.now());
        assert.deepEqual(await trail(created.value.id), [
          ['project_created', 'Acme Docs (enterprise)', 'cli'],
        ]);
      },
    );

    it(
      'create → conflict for a taken slug, invalid_body for a bad slug or plan; nothing written',
      { skip },
      async () => {
        const taken = await projects().create(OPERATOR, {
          slug: 'acme',
          name: 'Other',
          plan: 'free',
          perMinute: null,
          perDay: null,
        });
        assert.deepEqual(taken.ok ? undefined : [taken.problem.code, taken.problem.param], [
          'conflict',
          'slug',
        ]);
        const bad = await projects().create(OPERATOR, {
          slug: 'No!',
          name: 'X',
          plan: 'free',
          perMinute: null,
          perDay: null,
        });
        assert.equal(bad.ok ? undefined : bad.problem.param, 'slug');
        const plan = await projects().create(OPERATOR, {
          slug: 'ent',
          name: 'X',
          plan: 'enterprise',
          perMinute: null,
          perDay: null,
        });
        assert.equal(plan.ok ? undefined : plan.problem.param, 'plan');
        assert.equal(await storage.projects.bySlug('ent'), undefined);
        const acme = (await storage.projects.bySlug('acme'))!;
        assert.equal((await trail(acme.id)).length, 1, 'no record of a refused change');
      },
    );

    it(
      'setPlan → the new plan and a plan_changed record from → to; unknown slug → not_found',
      { skip },
      async () => {
        clock.advance(1_000);
        const changed = await projects().setPlan(OPERATOR, 'acme', {
          plan: 'pro',
          perMinute: null,
          perDay: null,
        });
        assert.ok(changed.ok);
        assert.equal(changed.value.project.plan, 'pro');
        assert.equal(changed.value.project.perMinute, null);
        assert.equal(changed.value.previous.plan, 'enterprise');
        const acme = (await storage.projects.bySlug('acme'))!;
        assert.equal(acme.plan, 'pro');
        assert.deepEqual((await trail(acme.id))[0], ['plan_changed', 'enterprise → pro', 'cli']);
        const missing = await projects().setPlan(OPERATOR, 'nope', {
          plan: 'pro',
          perMinute: null,
          perDay: null,
        });
        assert.equal(missing.ok ? undefined : missing.problem.code, 'not_found');
      },
    );

    it(
      'an account, even through a token, may neither create projects nor change plans: forbidden',
      { skip },
      async () => {
        const create = await projects().create(ACCOUNT, {
          slug: 'mine',
          name: 'Mine',
          plan: 'free',
          perMinute: null,
          perDay: null,
        });
        assert.equal(create.ok ? undefined : create.problem.code, 'forbidden');
        const plan = await projects().setPlan(ACCOUNT, 'acme', {
          plan: 'business',
          perMinute: null,
          perDay: null,
        });
        assert.equal(plan.ok ? undefined : plan.problem.code, 'forbidden');
        assert.equal((await storage.projects.bySlug('acme'))!.plan, 'pro');
      },
    );
  });
}
