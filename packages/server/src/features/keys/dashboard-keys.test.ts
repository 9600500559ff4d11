import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { postForm } from '../../../test/dashboard-forms.ts';
import { makeTestApp, type SignedIn, type TestApp } from '../../../test/harness.ts';

/** Every key operation at the dashboard's door: create with expiry and own limits, edit, roll, unban, the cap. */
describe('dashboard keys: create with expiry and own limits, edit, roll, unban, the plan’s cap', () => {
  let app: TestApp;
  let owner: SignedIn;
  let developer: SignedIn;
  const keysUrl = '/dashboard/projects/keys/keys';
  const page = (who: SignedIn, url = keysUrl) =>
    app.request({ url, key: null, unchecked: true, headers: { cookie: who.cookie } });
  const keyLabelled = async (label: string) =>
    (await app.storage.keys.list('prj_keys')).find((key) => key.label === label)!;

  before(async () => {
    app = await makeTestApp();
    owner = await app.signedInMember('keys');
    developer = await app.signedInMember('keys');
    await app.storage.projects.setRole(developer.accountId, owner.projectId, 'developer');
  });
  after(() => app.close());

  it('POST …/keys with a label, an expiry and own limits → 303; the table shows prefix, label, state, created, expires, last used', async () => {
    const created = await postForm(app, developer, keysUrl, {
      label: 'CI',
      expiresInDays: '30',
      perMinute: '5',
      perDay: '',
    });
    assert.equal(created.status, 303);
    const key = await keyLabelled('CI');
    assert.equal(key.expiresAt, app.clock.now() + 30 * 86_400_000);
    assert.deepEqual([key.ownPerMinute, key.ownPerDay], [5, null]);
    const shown = (await page(developer)).body;
    assert.match(shown, /<output id="new-secret">ps_test_/);
    for (const column of ['Key', 'State', 'Created', 'Expires', 'Last used'])
      assert.match(shown, new RegExp(`<th scope="col">${column}</th>`));
    assert.match(shown, new RegExp(`${key.prefix}…`));
    assert.match(shown, /<span class="badge ok">active<\/span>/);
    assert.match(shown, /The Free plan allows 10 keys in use/);
  });

  it('POST …/keys with own limits above the plan’s, or not a number → 303 and the reason beside the form, no key', async () => {
    const before = (await app.storage.keys.list('prj_keys')).length;
    for (const [perMinute, said] of [
      ['61', /PerMinute must be at most the project&#39;s 60|perMinute must be at most/i],
      ['abc', /Requests a minute must be a whole number/],
    ] as const) {
      assert.equal((await postForm(app, developer, keysUrl, { label: 'bad', perMinute })).status, 303);
      const shown = (await page(developer)).body;
      assert.match(shown, said);
      assert.match(shown, /value="bad"/, 'what was typed stays');
    }
    assert.equal((await app.storage.keys.list('prj_keys')).length, before);
  });

  it('Edit → label and own limits saved; blank clears a limit', async () => {
    const key = await keyLabelled('CI');
    const url = `${keysUrl}/${key.id}/edit`;
    assert.match((await page(developer, url)).body, /value="5"/);
    const saved = await postForm(app, developer, url, { label: 'CI renamed', perMinute: '', perDay: '500' });
    assert.equal(saved.status, 303);
    const changed = (await app.storage.keys.get(key.id))!;
    assert.deepEqual([changed.label, changed.ownPerMinute, changed.ownPerDay], ['CI renamed', null, 500]);
    assert.match((await page(developer)).body, /was saved/);
  });

  it('Roll with an overlap → the new secret once; the old key “rolling until …” in the table, both working', async () => {
    const key = await keyLabelled('CI renamed');
    const url = `${keysUrl}/${key.id}/roll`;
    assert.match((await page(developer, url)).body, /name="overlapSeconds"/);
    const rolled = await postForm(app, developer, url, { overlapSeconds: '3600' });
    assert.equal(rolled.status, 303);
    assert.equal(rolled.headers.location, keysUrl);
    const shown = (await page(developer)).body;
    assert.match(shown, /<output id="new-secret">ps_test_/);
    const until = new Date(app.clock.now() + 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
    assert.match(shown, new RegExp(`keeps working until ${until} UTC`));
    assert.match(shown, new RegExp(`<span class="badge warn">rolling until ${until} UTC</span>`));
    assert.equal((await postForm(app, developer, url, { overlapSeconds: '3600' })).status, 303);
    assert.match((await page(developer, url)).body, /cannot be rolled/, 'a second roll is refused, said');
  });

  it('a banned key → “banned until …” with an Unban button for owners only; an owner lifts it, audited', async () => {
    await postForm(app, developer, keysUrl, { label: 'noisy' });
    const key = await keyLabelled('noisy');
    const until = app.clock.now() + 900_000;
    await app.storage.keys.ban(key.id, until);
    const end = new Date(until).toISOString().slice(0, 16).replace('T', ' ');
    const ownersView = (await page(owner)).body;
    assert.match(ownersView, new RegExp(`<span class="badge warn">banned until ${end} UTC</span>`));
    assert.match(ownersView, new RegExp(`action="${keysUrl}/${key.id}/unban"`));
    assert.doesNotMatch((await page(developer)).body, /\/unban"/, 'a developer sees no Unban');
    const refused = await postForm(app, developer, `${keysUrl}/${key.id}/unban`);
    assert.equal(refused.status, 403);
    const lifted = await postForm(app, owner, `${keysUrl}/${key.id}/unban`);
    assert.equal(lifted.status, 303);
    assert.match((await page(owner)).body, /is no longer banned/);
    assert.equal((await app.storage.keys.get(key.id))!.bannedUntil, null);
    const activity = (await page(owner, '/dashboard/projects/keys/activity')).body;
    assert.match(activity, /Lifted a key’s ban/);
  });

  it('a key beyond the Free plan’s 10 keys in use → 303 and the reason, no key', async () => {
    for (let i = 0; ; i++) {
      await postForm(app, developer, keysUrl, { label: `fill ${i}` });
      const shown = (await page(developer)).body;
      if (/allows 10 keys in use per project; revoke one first/.test(shown)) break;
      assert.ok(i < 10, 'refused at the cap');
    }
    const inUse = (await app.storage.keys.list('prj_keys')).filter(
      (key) => key.revokedAt === null && (key.expiresAt === null || key.expiresAt > app.clock.now()),
    );
    assert.equal(inUse.length, 10);
  });

  it('the Overview and the plans table say the limits are per project, shared by its keys, and the keys each plan allows', async () => {
    const overview = (await page(owner, '/dashboard/projects/keys')).body;
    assert.match(overview, /60 requests per project, shared by its keys/);
    assert.match(overview, /1,000 requests per project, shared by its keys/);
    assert.doesNotMatch(overview, /per key/);
    assert.match(overview, /<th scope="col">Keys in use<\/th>/);
    assert.match(overview, /<td>Free[\s\S]*?<td>10<\/td>/);
  });
});
