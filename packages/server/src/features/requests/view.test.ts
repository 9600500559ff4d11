import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiKeyRecord } from '../../storage/records.ts';
import { keyChoices } from './view.ts';

const key = (id: string, label: string | null, prefix: string | null) =>
  ({ id, label, prefix }) as unknown as ApiKeyRecord;

test('the Requests key filter: a shared label is told apart by the keys’ first characters, a unique one is shown alone', () => {
  assert.deepEqual(
    keyChoices([
      key('k1', 'CI', 'ps_test_AbCd'),
      key('k2', 'CI', 'ps_test_EfGh'),
      key('k3', 'iOS app', 'ps_live_IjKl'),
      key('k4', null, 'ps_live_MnOp'),
      key('k5', null, null),
    ]),
    [
      ['k1', 'CI (ps_test_AbCd…)'],
      ['k2', 'CI (ps_test_EfGh…)'],
      ['k3', 'iOS app'],
      ['k4', 'ps_live_MnOp…'],
      ['k5', 'k5'],
    ],
  );
});
