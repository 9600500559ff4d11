import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTestApp, type SignedIn, type TestApp } from './harness.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';

const ROUNDS = 50;

/**
 * The audit's reproduction through the dashboard: two owners of a project each send, at the same
 * moment, the removal (or demotion) of the other. One change is made, the other refused as the last
 * owner's, on SQLite and on PostgreSQL, every round.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`dashboard on ${backend}: two owners removing or demoting each other at once`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    const lines: string[] = [];
    let cleanup: () => Promise<void> = async () => {};
    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-owner-race-',
      );
      cleanup = shared.cleanup;
      app = await makeTestApp({ storage: await shared.open(), logLines: lines });
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await cleanup();
    });

    const post = (who: SignedIn, url: string, form: Record<string, string>) =>
      app.request({
        method: 'POST',
        url,
        key: null,
        unchecked: true,
        headers: { cookie: who.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: who.csrfToken, ...form }).toString(),
      });
    const move = (round: number, who: SignedIn, other: SignedIn, slug: string) =>
      (round + (who === other ? 0 : 1)) % 3 === 0
        ? post(who, `/dashboard/projects/${slug}/members/${other.accountId}/role`, { role: 'viewer' })
        : post(who, `/dashboard/projects/${slug}/members/${other.accountId}/remove`, {});

    it(
      `${ROUNDS} rounds → one owner always remains; the other change refused, never a 5xx`,
      { skip },
      async () => {
        for (let round = 0; round < ROUNDS; round++) {
          const slug = `race-${round}`;
          const ann = await app.signedInMember(slug);
          const bob = await app.signedInMember(slug);
          const answers = await Promise.all([move(round, ann, bob, slug), move(round + 1, bob, ann, slug)]);
          // The later change is refused as the last owner's (303 back to the page with the reason), or
          // finds its sender signed out (401), made a viewer (403) or no longer a member (404) when the
          // other change came first; never a 5xx.
          const statuses = answers.map((answer) => answer.status);
          const errors = lines.filter((line) => line.includes('"level":50'));
          assert.ok(
            statuses.includes(303) && statuses.every((status) => [303, 401, 403, 404].includes(status)),
            `round ${round}: ${statuses.join(', ')} ${errors.join('\n')}`,
          );
          const members = await app.storage.projects.members(ann.projectId);
          assert.equal(members.filter((member) => member.role === 'owner').length, 1, `round ${round}`);
        }
      },
    );
  });
}
