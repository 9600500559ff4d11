import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { LOGGED_URL_MAX, redactText, redactUrl } from './redact.ts';

const KEY = 'ps_live_3kR8c1q0ZxY7wVb2nM4pL6tS9dF0gH1jK2lQ5rT8uW3';
const TOKEN = 'ps_at_Zq3vT7yB1nM5kL9pR2sW6xC0dF4gH8jK3mN7qS1uV5w';

describe('redactUrl', () => {
  const cases: [string, string][] = [
    ['/v1/pets?limit=20&status=sold', '/v1/pets?limit=20&status=sold'],
    [`/v1/pets?api_key=${KEY}`, '/v1/pets?api_key=[redacted]'],
    ['/v1/pets?api_key=not-shaped-like-a-key', '/v1/pets?api_key=[redacted]'],
    ['/v1/pets?token=abc&limit=2', '/v1/pets?token=[redacted]&limit=2'],
    ['/v1/pets?Authorization=Bearer%20abc', '/v1/pets?Authorization=[redacted]'],
    ['/v1/pets?password=hunter2;limit=1', '/v1/pets?password=[redacted];limit=1'],
    [`/v1/pets?q=${KEY}`, '/v1/pets?q=[redacted]'],
    [`/v1/pets?q=Bearer+${KEY}`, '/v1/pets?q=[redacted]'],
    [`/v1/pets?q=${KEY.replaceAll('_', '%5F')}`, '/v1/pets?q=[redacted]'],
    [`/v1/pets?${KEY}`, '/v1/pets?[redacted]'],
    [`/v1/pets?${KEY}=1`, '/v1/pets?[redacted]'],
    [`/v1/${KEY}/pets`, '/v1/[redacted]/pets'],
    [`/v1/pets/${encodeURIComponent(KEY)}`, '/v1/pets/[redacted]'],
    ['/v1/pets?cursor=eyJhIjoxfQ&limit=5', '/v1/pets?cursor=eyJhIjoxfQ&limit=5'],
    ['/v1/pets?key', '/v1/pets?key=[redacted]'],
    ['/dashboard/sign-in?email=a%40b.test&pw=hunter2', '/dashboard/sign-in?email=a%40b.test&pw=[redacted]'],
    ['/dashboard/keys?_csrf=abc&x=1', '/dashboard/keys?_csrf=[redacted]&x=1'],
    ['/x?csrf_token=abc', '/x?csrf_token=[redacted]'],
    ['/x?Password=abc', '/x?Password=[redacted]'],
    ['/x?TOKEN=abc', '/x?TOKEN=[redacted]'],
    ['/dashboard/invitations?invitation=abc', '/dashboard/invitations?invitation=[redacted]'],
    // Encoded twice (or more): decoded until stable.
    [`/v1/pets/${KEY.replaceAll('_', '%255F')}`, '/v1/pets/[redacted]'],
    [`/v1/pets?q=${KEY.replaceAll('_', '%25255F')}`, '/v1/pets?q=[redacted]'],
    [`/v1/pets?${KEY.replaceAll('_', '%255F')}=1`, '/v1/pets?[redacted]'],
    ['/x?api%255Fkey=abc', '/x?api%255Fkey=[redacted]'],
    // Named like secrets, and of their kind.
    ['/x?auth_token=a&limit=1', '/x?auth_token=[redacted]&limit=1'],
    ['/x?api_token=a', '/x?api_token=[redacted]'],
    ['/x?access_key=a', '/x?access_key=[redacted]'],
    ['/x?private_token=a', '/x?private_token=[redacted]'],
    ['/x?jwt=a', '/x?jwt=[redacted]'],
    ['/x?new_password=a', '/x?new_password=[redacted]'],
    ['/x?user[password]=a', '/x?user[password]=[redacted]'],
    ['/x?user%5Bpassword%5D=a', '/x?user%5Bpassword%5D=[redacted]'],
    ['/x?sessionToken=a', '/x?sessionToken=[redacted]'],
    ['/x?X-Amz-Signature=abc&X-Amz-Date=1', '/x?X-Amz-Signature=[redacted]&X-Amz-Date=1'],
    ['/x?my_secret_thing=a', '/x?my_secret_thing=[redacted]'],
    ['/x?github_jwt=a', '/x?github_jwt=[redacted]'],
    ['/x?session_state=a', '/x?session_state=[redacted]'],
    ['/x?SESSIONID=a', '/x?SESSIONID=[redacted]'],
    ['/x?Refresh-Token=a', '/x?Refresh-Token=[redacted]'],
    ['/x?client_secret=a', '/x?client_secret=[redacted]'],
    // Access tokens, wherever they stand.
    [`/manage/v1/projects?q=${TOKEN}`, '/manage/v1/projects?q=[redacted]'],
    [`/manage/v1/${TOKEN}/projects`, '/manage/v1/[redacted]/projects'],
    [`/manage/v1/projects?${TOKEN}=1`, '/manage/v1/projects?[redacted]'],
    [`/v1/pets/${TOKEN.replaceAll('_', '%5F')}`, '/v1/pets/[redacted]'],
    // Refresh tokens by their name, and parameters of a path segment (`;token=`).
    ['/x?refresh=abc&limit=1', '/x?refresh=[redacted]&limit=1'],
    ['/x?limit=1;refresh=abc', '/x?limit=1;refresh=[redacted]'],
    ['/v1/pets;token=abc', '/v1/pets;token=[redacted]'],
    ['/v1/pets;jsessionid=abc;v=2/x?limit=1', '/v1/pets;jsessionid=[redacted];v=2/x?limit=1'],
    ['/v1/refresh=abc/pets', '/v1/refresh=[redacted]/pets'],
    ['/v1/pets%3Btoken%3Dabc', '/v1/[redacted]'],
    [`/v1/pets;x=${TOKEN}`, '/v1/[redacted]'],
    ['/v1/pets;v=2', '/v1/pets;v=2'],
    // Not secrets: left as sent.
    ['/v1/pets?status=available&limit=5', '/v1/pets?status=available&limit=5'],
    ['/x?monkey=1&passage=2', '/x?monkey=1&passage=2'],
  ];
  for (const [url, logged] of cases) {
    it(`${url} → ${logged}`, () => assert.equal(redactUrl(url), logged));
  }

  it(`cuts a long target at ${LOGGED_URL_MAX} characters`, () => {
    const logged = redactUrl(`/v1/pets?status=${'a'.repeat(5_000)}`);
    assert.equal(logged.length, LOGGED_URL_MAX + 1);
    assert.ok(logged.endsWith('…'));
  });

  it('a target encoded many times over → decoding stops, the target is logged as it came', () => {
    let deep = 'x';
    for (let i = 0; i < 20; i++) deep = encodeURIComponent(`%${deep}`);
    assert.equal(redactUrl(`/v1/pets?q=${deep}`), `/v1/pets?q=${deep}`.slice(0, LOGGED_URL_MAX + 1));
  });

  it('redactText: every word of a message as a target → keys, tokens and named secrets out, the rest kept', () => {
    assert.equal(
      redactText(`unknown query parameter '${TOKEN}' (known: limit)`),
      "unknown query parameter '[redacted]' (known: limit)",
    );
    assert.equal(redactText(`no resource at /v1/${KEY}/x`), 'no resource at /v1/[redacted]/x');
    assert.equal(redactText('no resource at /v1/pets;token=abc'), 'no resource at /v1/pets;token=[redacted]');
    assert.equal(redactText('the name must be 1 to 100 characters'), 'the name must be 1 to 100 characters');
  });

  it('never lets a key through, wherever it is put in a generated target', () => {
    const piece = fc.stringMatching(/^[A-Za-z0-9=&;/?._~-]{0,12}$/);
    fc.assert(
      fc.property(piece, piece, fc.integer({ min: 0, max: 3 }), (before, afterwards, times) => {
        let secret = KEY;
        for (let i = 0; i < times; i++) secret = encodeURIComponent(secret).replaceAll('_', '%5F');
        const logged = redactUrl(`/v1/${before}${secret}${afterwards}`);
        assert.equal(logged.includes(KEY), false, logged);
        assert.equal(logged.includes(KEY.slice(8, 30)), false, logged);
      }),
      { numRuns: 500 },
    );
  });
});
