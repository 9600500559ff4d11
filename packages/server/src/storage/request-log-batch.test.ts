import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createRequestIds } from '../http/request-ids.ts';
import { combinationPattern, uuidV7Ms } from './request-log-batch.ts';

describe('request log batch summaries', () => {
  it('uuidV7Ms → the time in every id the service makes, whatever the time; nothing for other ids', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 2 }), (ms) => {
        const id = createRequestIds(() => ms).next();
        assert.equal(uuidV7Ms(id), ms);
        assert.equal(uuidV7Ms(id.toUpperCase()), ms);
      }),
    );
    for (const other of ['req-1', '', 'x'.repeat(36), '019ab697-e87b-4000-93f3-cdc1ba6e3f2d'])
      assert.equal(uuidV7Ms(other), undefined, other);
  });

  it('combinationPattern → key, operation and status together, LIKE characters of a name taken literally', () => {
    assert.equal(combinationPattern({ projectId: 'p', limit: 1 }), undefined);
    assert.equal(
      combinationPattern({ projectId: 'p', keyId: 'key_1', status: '5xx', limit: 1 }),
      '%|key\\_1|%|5__|%',
    );
    assert.equal(
      combinationPattern({ projectId: 'p', operation: 'a%b\\c', status: 404, limit: 1 }),
      '%|%|a\\%b\\\\c|404|%',
    );
    assert.equal(combinationPattern({ projectId: 'p', status: '429', limit: 1 }), '%|%|%|429|%');
  });
});
