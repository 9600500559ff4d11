import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { Secret, TOTP } from 'otpauth';
import { RESET_TTL_MS } from '../src/features/identity/password-reset.ts';
import { TOTP_SETTINGS } from '../src/features/identity/two-factor.ts';
import { addAccount, Browser, csrfOf } from './dashboard-support.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'quiet meadow lantern 42';
const codeAt = (secret: string, at: number) =>
  TOTP.generate({ ...TOTP_SETTINGS, secret: Secret.fromBase32(secret), timestamp: at });

interface Holder {
  id: string;
  email: string;
  browser: Browser;
  tokens: { id: string; secret: string }[];
}

/**
 * Access tokens obey the account's security (issue 46): whoever recovers the account from the mailbox,
 * changes the password, signs out everywhere or turns two-factor on also ends the tokens someone else
 * may have made (a password change and two-factor keep only the tokens the person chooses to keep),
 * and a project's two-factor requirement binds tokens as it binds the dashboard. On both databases,
 * through the app; each change and its revocations are one transaction with their records.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`access tokens follow the account's security (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    let accounts = 0;
    let cleanup: () => Promise<void> = async () => {};

    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-token-security-',
      );
      cleanup = shared.cleanup;
      app = await makeTestApp({ storage: await shared.open() });
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await cleanup();
    });

    /** An account of `slugs`, signed in, holding `count` write tokens that reach them. */
    const holder = async (count: number, slugs = ['acme']): Promise<Holder> => {
      const email = `holder${++accounts}-${backend}@example.com`;
      const id = await addAccount(app, email, PASSWORD, slugs);
      const browser = new Browser(app);
      // A minute apart: sign-ins from one address are limited per minute.
      app.clock.advance(60_000);
      await browser.signIn(email, PASSWORD);
      const made = { id, email, browser, tokens: [] as Holder['tokens'] };
      for (let n = 0; n < count; n++) made.tokens.push(await token(made, slugs));
      return made;
    };
    /** A write token made on Account → Access tokens, as its account makes one: its id and secret. */
    const token = async (who: Pick<Holder, 'browser'>, slugs: string[]) => {
      const page = await who.browser.get('/dashboard/account/tokens');
      const name = `token ${randomBytes(3).toString('hex')}`;
      const projects = Object.fromEntries(slugs.map((slug) => [`project:${slug}`, 'on']));
      const posted = await who.browser.post('/dashboard/account/tokens', {
        _csrf: csrfOf(page),
        name,
        scope: 'write',
        expires: '30',
        ...projects,
      });
      const shown = await who.browser.get(posted.headers.location!);
      const secret = /<output id="new-secret">(ps_at_[A-Za-z0-9_-]{43})<\/output>/.exec(shown.body)?.[1];
      assert.ok(secret, `made: ${/role="alert"[^>]*>([^<]*)</.exec(shown.body)?.[1] ?? ''}`);
      const [row] = await app.storage.sql.all('SELECT id FROM access_tokens WHERE name = $1', [name]);
      return { id: row!.id as string, secret };
    };
    const status = async (secret: string, url = '/manage/v1/projects/acme/keys') =>
      (await app.request({ url, key: secret })).status;
    const statuses = (tokens: Holder['tokens']) => Promise.all(tokens.map(({ secret }) => status(secret)));
    /** The account's own records since the last mark, oldest first. */
    let mark = 0;
    const marked = () => {
      app.clock.advance(1);
      mark = app.clock.now();
    };
    const trail = async (accountId: string) =>
      (await app.storage.audit.list({ projectId: 'prj_acme', limit: 1_000, accountEvents: true }))
        .filter((event) => event.actorAccountId === accountId && event.projectId === null && event.at >= mark)
        .reverse();
    /** The form fields that keep `kept` and revoke every other token the page lists, as its boxes say. */
    const choices = (page: string, kept: ReadonlySet<string>) => {
      const listed = [...page.matchAll(/name="listed:(at_[0-9a-f]+)"/g)].map((match) => match[1]!);
      const fields: Record<string, string> = {};
      for (const id of listed) {
        assert.match(
          page,
          new RegExp(`name="revoke:${id}" checked`),
          'each box checked: revoked unless cleared',
        );
        fields[`listed:${id}`] = '1';
        if (!kept.has(id)) fields[`revoke:${id}`] = 'on';
      }
      return { listed, fields };
    };

    it(
      'a password reset from the mailed link → every token of the account 401 at once; one transaction with its records',
      { skip },
      async () => {
        const ann = await holder(3);
        assert.deepEqual(await statuses(ann.tokens), [200, 200, 200]);
        const link = randomBytes(32).toString('base64url');
        await app.storage.accounts.createPasswordReset({
          tokenDigest: createHash('sha256').update(link).digest('hex'),
          accountId: ann.id,
          createdAt: app.clock.now(),
          expiresAt: app.clock.now() + RESET_TTL_MS,
        });
        const browser = new Browser(app);
        const form = await browser.get(`/dashboard/reset-password?token=${link}`);
        marked();
        const reset = await browser.post('/dashboard/reset-password', {
          _csrf: csrfOf(form),
          token: link,
          password: NEW_PASSWORD,
          repeat: NEW_PASSWORD,
        });
        assert.equal(reset.status, 303, reset.body);
        assert.deepEqual(await statuses(ann.tokens), [401, 401, 401]);
        const records = await trail(ann.id);
        assert.deepEqual(
          records.map((event) => event.action),
          ['password_reset', 'access_token_revoked', 'access_token_revoked', 'access_token_revoked'],
        );
        assert.equal(new Set(records.map((event) => event.at)).size, 1, 'written together');
      },
    );

    it(
      '"Sign out everywhere" → every session ends and every token of the account 401 at once',
      { skip },
      async () => {
        const bob = await holder(2);
        const account = await bob.browser.get('/dashboard/account');
        assert.match(account.body, /every access token\s+of\s+it is revoked/);
        marked();
        const out = await bob.browser.post('/dashboard/account/sign-out-everywhere', {
          _csrf: csrfOf(account),
        });
        assert.equal(out.status, 303);
        assert.equal((await bob.browser.get('/dashboard')).status, 303, 'signed out');
        assert.deepEqual(await statuses(bob.tokens), [401, 401]);
        assert.deepEqual((await trail(bob.id)).map((event) => event.action).slice(-3), [
          'signed_out_everywhere',
          'access_token_revoked',
          'access_token_revoked',
        ]);
      },
    );

    it(
      'property: a password change lists each token with its box checked; exactly the tokens whose box was cleared keep working',
      { skip },
      async () => {
        await fc.assert(
          fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }), async (keep) => {
            const who = await holder(keep.length);
            const page = await who.browser.get('/dashboard/account');
            const kept = new Set(who.tokens.filter((_, n) => keep[n]).map((t) => t.id));
            const { listed, fields } = choices(page.body, kept);
            assert.deepEqual(
              listed.toSorted(),
              who.tokens.map((t) => t.id).toSorted(),
              'every active token listed',
            );
            marked();
            const changed = await who.browser.post('/dashboard/account/password', {
              _csrf: csrfOf(page),
              current: PASSWORD,
              password: NEW_PASSWORD,
              repeat: NEW_PASSWORD,
              ...fields,
            });
            assert.equal(changed.status, 303, changed.body);
            assert.deepEqual(
              await statuses(who.tokens),
              keep.map((k) => (k ? 200 : 401)),
            );
            const records = await trail(who.id);
            assert.deepEqual(
              records.map((event) => event.action),
              ['password_changed', ...keep.filter((k) => !k).map(() => 'access_token_revoked')],
            );
          }),
          { numRuns: 6 },
        );
      },
    );

    it(
      'a token made after the change page was shown → revoked too (only what the page listed can be kept)',
      { skip },
      async () => {
        const carol = await holder(1);
        const page = await carol.browser.get('/dashboard/account');
        const { fields } = choices(page.body, new Set(carol.tokens.map((t) => t.id)));
        const late = await token(carol, ['acme']);
        const changed = await carol.browser.post('/dashboard/account/password', {
          _csrf: csrfOf(page),
          current: PASSWORD,
          password: NEW_PASSWORD,
          repeat: NEW_PASSWORD,
          ...fields,
        });
        assert.equal(changed.status, 303);
        assert.deepEqual(await statuses([...carol.tokens, late]), [200, 401]);
      },
    );

    it(
      'two-factor turned on → the tokens whose box was cleared keep working, the others 401; one transaction with its records',
      { skip },
      async () => {
        const dan = await holder(3);
        const page = await dan.browser.get('/dashboard/account/two-factor');
        const secret = /<code id="two-factor-secret">([A-Z2-7 ]+)<\/code>/
          .exec(page.body)![1]!
          .replace(/ /g, '');
        const { fields } = choices(page.body, new Set([dan.tokens[1]!.id]));
        marked();
        const on = await dan.browser.post('/dashboard/account/two-factor', {
          _csrf: csrfOf(page),
          code: codeAt(secret, app.clock.now()),
          ...fields,
        });
        assert.equal(on.status, 303, on.body);
        assert.deepEqual(await statuses(dan.tokens), [401, 200, 401]);
        const records = await trail(dan.id);
        assert.deepEqual(
          records.map((event) => event.action),
          ['two_factor_enabled', 'access_token_revoked', 'access_token_revoked'],
        );
        assert.equal(new Set(records.map((event) => event.at)).size, 1);
        assert.equal(await app.storage.accounts.recoveryCodesLeft(dan.id), 10, 'the codes with the state');
      },
    );

    it(
      'a project requiring two-factor → every operation through the token of a member without it is 403 two_factor_required; the member’s other project answers; nothing written',
      { skip },
      async () => {
        const slug = `tfa-${backend}`;
        await holder(0, [slug]);
        const eve = await holder(0, [slug, 'acme']);
        const before = await token(eve, [slug, 'acme']);
        await app.storage.accounts.setTwoFactorRequired(`prj_${slug}`, true, app.clock.now());
        const routes = app.app.routeTable.filter(
          (route) =>
            route.url.startsWith('/manage/v1/projects/:slug') && route.config.access === 'accessToken',
        );
        assert.ok(routes.length > 15);
        const written = async () =>
          (await app.storage.audit.list({ projectId: `prj_${slug}`, limit: 1_000 })).length;
        const count = await written();
        for (const route of routes) {
          const url = route.url.replace(':slug', slug).replace(/:([A-Za-z]+)/g, 'some-$1');
          const response = await app.request({
            method: route.method,
            url,
            key: before.secret,
            ...(route.method === 'POST'
              ? { body: '{"label": ', headers: { 'content-type': 'application/json' } }
              : {}),
          });
          assert.equal(response.status, 403, `${route.method} ${route.url} → ${response.body}`);
          assert.equal((JSON.parse(response.body) as { code: string }).code, 'two_factor_required');
        }
        assert.equal(await written(), count);
        assert.equal(await status(before.secret), 200, 'the project that does not require it');
      },
    );

    it(
      'a token asked for after the requirement by a member without two-factor → refused; with two-factor on, made and working',
      { skip },
      async () => {
        const slug = `tfa-new-${backend}`;
        const frank = await holder(0, [slug]);
        await app.storage.accounts.setTwoFactorRequired(`prj_${slug}`, true, app.clock.now());
        const page = await frank.browser.get('/dashboard/account/tokens');
        const posted = await frank.browser.post('/dashboard/account/tokens', {
          _csrf: csrfOf(page),
          name: 'late',
          scope: 'read',
          [`project:${slug}`]: 'on',
          expires: '7',
        });
        assert.match((await frank.browser.get(posted.headers.location!)).body, /requires two-factor sign-in/);
        assert.deepEqual(
          await app.storage.sql.all('SELECT id FROM access_tokens WHERE name = $1', ['late']),
          [],
        );
        const enrol = await frank.browser.get('/dashboard/account/two-factor');
        const secret = /<code id="two-factor-secret">([A-Z2-7 ]+)<\/code>/
          .exec(enrol.body)![1]!
          .replace(/ /g, '');
        await frank.browser.post('/dashboard/account/two-factor', {
          _csrf: csrfOf(enrol),
          code: codeAt(secret, app.clock.now()),
        });
        const made = await token(frank, [slug]);
        assert.equal(await status(made.secret, `/manage/v1/projects/${slug}/keys`), 200);
      },
    );
  });
}
