import assert from 'node:assert/strict';
import { test } from 'node:test';
import { servePetstore, type WireResponse } from './ratelimit-http-process.ts';

const BAN_THRESHOLD = 5;

/** An entry of `petstore keys list --json`. */
interface ListedKey {
  id: string;
  state: string;
}

function assertRefused(response: WireResponse, code: string): number {
  assert.equal(response.status, 429, response.body);
  assert.equal(response.code, code, response.body);
  assert.equal(response.headers.get('x-ratelimit-remaining'), '0');
  const retryAfter = response.headers.get('retry-after') ?? '';
  assert.match(retryAfter, /^[1-9]\d*$/);
  return Number(retryAfter);
}

test(
  'petstore serve → a Free key gets 60 then 429, is banned for keeping on, and keys unban lifts it',
  {
    timeout: 90_000,
  },
  async (t) => {
    const server = await servePetstore(t, { PETSTORE_BAN_THRESHOLD: String(BAN_THRESHOLD) });
    const created = JSON.parse(
      await server.cli('keys', 'create', '--plan', 'free', '--label', 'burst', '--json'),
    );
    const { id, key } = created as { id: string; key: string };

    const burst: WireResponse[] = [];
    for (let i = 0; i < 61; i++) burst.push(await server.get('/v1/pets', key));
    burst.slice(0, 60).forEach((response, i) => {
      assert.equal(response.status, 200, `request ${i + 1}: ${response.body}`);
      assert.equal(response.headers.get('x-ratelimit-limit'), '60');
      assert.equal(response.headers.get('x-ratelimit-remaining'), String(59 - i));
    });
    assert.ok(assertRefused(burst[60]!, 'rate_limited') <= 60);

    for (let refusal = 2; refusal <= BAN_THRESHOLD; refusal++) {
      assertRefused(await server.get('/v1/pets', key), 'rate_limited');
    }
    const banned = await server.get('/v1/pets', key);
    const banSeconds = assertRefused(banned, 'temporarily_banned');
    assert.ok(banSeconds > 890 && banSeconds <= 900, `Retry-After ${banSeconds}`);
    assert.ok(assertRefused(await server.get('/v1/store/orders', key), 'temporarily_banned') <= banSeconds);

    const listed = (await server.cli('keys', 'list')).split('\n').find((line) => line.startsWith(id));
    assert.match(
      listed ?? '',
      /^key_[0-9a-f]+ {2}test {2}free {2}burst {2}.* {2}banned until \d{4}-\d\d-\d\d \d\d:\d\dZ$/,
    );
    const listedJson = JSON.parse(await server.cli('keys', 'list', '--json')) as ListedKey[];
    const entry = listedJson.find((candidate) => candidate.id === id);
    // --json prints the management API's Key object: the same state as the table, with its end.
    assert.equal(entry?.state, 'banned');

    assert.equal((await server.cli('keys', 'unban', id)).trim(), `unbanned ${id}`);
    const after = await server.get('/v1/pets', key);
    if (after.status !== 200) assertRefused(after, 'rate_limited');
    assert.match(
      (await server.cli('keys', 'list')).split('\n').find((line) => line.startsWith(id)) ?? '',
      / active$/,
    );
  },
);
