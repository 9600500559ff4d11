import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANALYZE_AT_ROWS, createPartitionAnalysis } from './partition-analysis.ts';

function recorder(fail?: (partition: string) => Error | undefined) {
  const analysed: string[] = [];
  const warnings: object[] = [];
  let release = () => {};
  let held = Promise.resolve();
  const analysis = createPartitionAnalysis(
    async (partition) => {
      await held;
      const error = fail?.(partition);
      if (error) throw error;
      analysed.push(partition);
    },
    () => ({ warn: (obj) => void warnings.push(obj) }),
  );
  const hold = () => {
    held = new Promise((resolve) => (release = () => resolve()));
  };
  return { analysis, analysed, warnings, hold, release: () => release() };
}

describe('partition analysis', () => {
  it('a partition is analysed once each time its rows cross a step, never below the first', async () => {
    const { analysis, analysed } = recorder();
    analysis.wrote('request_log_batches_d20261125', ANALYZE_AT_ROWS[0] - 1);
    await analysis.idle();
    assert.deepEqual(analysed, []);
    analysis.wrote('request_log_batches_d20261125', 1);
    analysis.wrote('request_log_batches_d20261125', 500);
    await analysis.idle();
    assert.deepEqual(analysed, ['request_log_batches_d20261125']);
    analysis.wrote('request_log_batches_d20261125', ANALYZE_AT_ROWS[2]);
    await analysis.idle();
    assert.deepEqual(analysed, ['request_log_batches_d20261125', 'request_log_batches_d20261125']);
  });

  it('the writer never waits: wrote returns while an analysis is held; steps crossed meanwhile are one more analysis', async () => {
    const { analysis, analysed, hold, release } = recorder();
    hold();
    analysis.wrote('request_log_batches_d20261125', ANALYZE_AT_ROWS[0]);
    analysis.wrote('request_log_batches_d20261126', ANALYZE_AT_ROWS[0]);
    analysis.wrote('request_log_batches_d20261126', ANALYZE_AT_ROWS[1]);
    assert.deepEqual(analysed, []);
    release();
    await analysis.idle();
    assert.deepEqual(analysed, ['request_log_batches_d20261125', 'request_log_batches_d20261126']);
  });

  it('a failed ANALYZE → logged with the partition, later steps still run; a dropped partition → nothing logged', async () => {
    let failing = true;
    const { analysis, analysed, warnings } = recorder((partition) => {
      if (partition === 'request_log_batches_d20261101')
        return Object.assign(new Error('gone'), { code: '42P01' });
      return failing ? new Error('canceling statement due to statement timeout') : undefined;
    });
    analysis.wrote('request_log_batches_d20261125', ANALYZE_AT_ROWS[0]);
    analysis.wrote('request_log_batches_d20261101', ANALYZE_AT_ROWS[0]);
    await analysis.idle();
    assert.equal(warnings.length, 1);
    assert.equal((warnings[0] as { partition: string }).partition, 'request_log_batches_d20261125');
    failing = false;
    analysis.wrote('request_log_batches_d20261125', ANALYZE_AT_ROWS[1]);
    await analysis.idle();
    assert.deepEqual(analysed, ['request_log_batches_d20261125']);
  });

  it('stopped → nothing more is analysed', async () => {
    const { analysis, analysed } = recorder();
    analysis.stop();
    analysis.wrote('request_log_batches_d20261125', ANALYZE_AT_ROWS[1]);
    await analysis.idle();
    assert.deepEqual(analysed, []);
  });
});
