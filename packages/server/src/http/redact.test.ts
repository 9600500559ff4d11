import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { LOGGED_URL_MAX, redactUrl } from './redact.ts';

const KEY = 'ps_live_3kR8c1q0ZxY7wVb2nM4pL6tS9dF0gH1jK2lQ5rT8uW3';

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
  ];
  for (const [url, logged] of cases) {
    it(`${url} → ${logged}`, () => assert.equal(redactUrl(url), logged));
  }

  it(`cuts a long target at ${LOGGED_URL_MAX} characters`, () => {
    const logged = redactUrl(`/v1/pets?status=${'a'.repeat(5_000)}`);
    assert.equal(logged.length, LOGGED_URL_MAX + 1);
    assert.ok(logged.endsWith('…'));
  });

  it('never lets a key through, wherever it is put in a generated target', () => {
    const piece = fc.stringMatching(/^[A-Za-z0-9=&;/?._~-]{0,12}$/);
    fc.assert(
      fc.property(piece, piece, fc.boolean(), (before, afterwards, encoded) => {
        const secret = encoded ? encodeURIComponent(KEY).replaceAll('_', '%5F') : KEY;
        const logged = redactUrl(`/v1/${before}${secret}${afterwards}`);
        assert.equal(logged.includes(KEY), false, logged);
        assert.equal(logged.includes(KEY.slice(8, 30)), false, logged);
      }),
      { numRuns: 500 },
    );
  });
});
