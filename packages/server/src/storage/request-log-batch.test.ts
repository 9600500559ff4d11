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

  it('uuidV7Ms → for any id of the shape, the time the first version read (parseInt of its digits): stored ranges stay found', () => {
    const firstVersion = (id: string) => {
      const ms = Number.parseInt(id.slice(0, 8), 16) * 0x10000 + Number.parseInt(id.slice(9, 13), 16);
      return Number.isFinite(ms) ? ms : undefined;
    };
    const char = fc.constantFrom(...'0123456789abcdefABCDEFgxX +-. \t'.split(''));
    const digits = (length: number) =>
      fc.array(char, { minLength: length, maxLength: length }).map((c) => c.join(''));
    fc.assert(
      fc.property(digits(8), digits(4), digits(3), (first, second, rest) => {
        const id = `${first}-${second}-7${rest}-8000-000000000000`;
        assert.equal(uuidV7Ms(id), firstVersion(id), id);
      }),
      { numRuns: 2_000 },
    );
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
