import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LoggedRequest } from './request-log-records.ts';
import type { UsageCell } from './usage-records.ts';
import { createRequestLogWriter, USAGE_WRITE_CELLS } from './request-log-writer.ts';

const row = (i: number): LoggedRequest => ({
  projectId: 'prj_a',
  at: i,
  requestId: `r${i}`,
  keyId: 'key_a',
  keyLabel: null,
  operation: 'listPets',
  method: 'GET',
  path: '/v1/pets',
  status: 200,
  code: null,
  latencyMs: 1,
  address: '127.0.0.1',
});

/** A store that records the times of each batch written to it. */
const recordingStore = (batches: number[][]) => ({
  write: async (batch: LoggedRequest[]) => void batches.push(batch.map((entry) => entry.at)),
});

describe('request log writer', () => {
  it('add → rows written in batches of at most batchSize, one batch at a time, in order', async () => {
    const batches: number[][] = [];
    let inFlight = 0;
    const writer = createRequestLogWriter({
      store: {
        async write(batch) {
          inFlight++;
          assert.equal(inFlight, 1);
          await new Promise((resolve) => setImmediate(resolve));
          batches.push(batch.map((entry) => entry.at));
          inFlight--;
        },
      },
      batchSize: 3,
      flushIntervalMs: 60_000,
      onError: assert.fail,
    });
    for (let i = 0; i < 7; i++) writer.add(row(i));
    await writer.flush();
    assert.deepEqual(batches, [[0, 1, 2], [3, 4, 5], [6]]);
    assert.deepEqual(writer.stats(), {
      written: 7,
      dropped: { bufferFull: 0, writeFailed: 0 },
      buffered: 0,
      droppedProjects: [],
      coalesced: 0,
      usagePending: 0,
    });
  });

  it('rows past a full batch wait for the next full batch, not a commit of their own', async () => {
    const batches: number[][] = [];
    const wrote = () => new Promise((resolve) => setTimeout(resolve, 5));
    const writer = createRequestLogWriter({
      store: recordingStore(batches),
      batchSize: 3,
      flushIntervalMs: 60_000,
      onError: assert.fail,
    });
    // The batch is written on a later turn: the fourth row arrives before it is.
    for (let i = 0; i < 4; i++) writer.add(row(i));
    await wrote();
    assert.deepEqual(batches, [[0, 1, 2]]);
    assert.equal(writer.stats().buffered, 1);
    for (let i = 4; i < 6; i++) writer.add(row(i));
    await wrote();
    assert.deepEqual(batches, [
      [0, 1, 2],
      [3, 4, 5],
    ]);
  });

  it('rows left by a write → written flushIntervalMs later, without a flush', async () => {
    const batches: number[][] = [];
    const writer = createRequestLogWriter({
      store: recordingStore(batches),
      batchSize: 2,
      flushIntervalMs: 20,
      onError: assert.fail,
    });
    for (let i = 0; i < 3; i++) writer.add(row(i));
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(batches, [[0, 1]]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(batches, [[0, 1], [2]]);
  });

  it('a store that never answers → add still returns at once; past maxBuffered rows are dropped and counted', () => {
    const writer = createRequestLogWriter({
      store: { write: () => new Promise(() => {}) },
      maxBuffered: 4,
      batchSize: 2,
      onError: assert.fail,
    });
    for (let i = 0; i < 10; i++) writer.add(row(i));
    const stats = writer.stats();
    assert.equal(stats.buffered, 4);
    assert.equal(stats.dropped.bufferFull, 6);
  });

  it('a batch that fails → reported with its size, counted as dropped, the next batch still written', async () => {
    const errors: number[] = [];
    let calls = 0;
    const writer = createRequestLogWriter({
      store: {
        async write() {
          calls++;
          if (calls === 1) throw new Error('database unavailable');
        },
      },
      batchSize: 2,
      flushIntervalMs: 60_000,
      onError: (_error, rows) => errors.push(rows),
    });
    for (let i = 0; i < 3; i++) writer.add(row(i));
    await writer.flush();
    assert.deepEqual(errors, [2]);
    assert.deepEqual(writer.stats().dropped, { bufferFull: 0, writeFailed: 2 });
    assert.equal(writer.stats().written, 1);
  });

  it('a row alone → written flushIntervalMs later, without a flush', async () => {
    const written = Promise.withResolvers<number>();
    const writer = createRequestLogWriter({
      store: { write: async (batch) => written.resolve(batch.length) },
      flushIntervalMs: 5,
      onError: assert.fail,
    });
    writer.add(row(1));
    assert.equal(await written.promise, 1);
  });
  it('settle → the rows queued before it written at once, not after the interval', async () => {
    const batches: number[][] = [];
    const writer = createRequestLogWriter({
      store: recordingStore(batches),
      batchSize: 10,
      flushIntervalMs: 60_000,
      onError: assert.fail,
    });
    await writer.settle();
    assert.deepEqual(batches, []);
    for (let i = 0; i < 3; i++) writer.add(row(i));
    await writer.settle();
    assert.deepEqual(batches, [[0, 1, 2]]);
  });

  it('settle during a write → waits for that batch and then the rows queued before the call', async () => {
    const batches: number[][] = [];
    const gate = Promise.withResolvers<void>();
    let writing = Promise.withResolvers<void>();
    const writer = createRequestLogWriter({
      store: {
        async write(batch) {
          writing.resolve();
          if (batches.length === 0) await gate.promise;
          batches.push(batch.map((entry) => entry.at));
        },
      },
      batchSize: 2,
      flushIntervalMs: 60_000,
      onError: assert.fail,
    });
    writer.add(row(0));
    writer.add(row(1));
    await writing.promise;
    writing = Promise.withResolvers<void>();
    writer.add(row(2));
    let settled = false;
    const settling = writer.settle().then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false);
    gate.resolve();
    await settling;
    assert.deepEqual(batches, [[0, 1], [2]]);
  });

  it('settle on a busy service → ends after its own rows; rows arriving meanwhile wait for a full batch', async () => {
    const batches: number[][] = [];
    let next = 0;
    const writer = createRequestLogWriter({
      store: {
        async write(batch) {
          // Requests keep arriving while each batch is written (a PostgreSQL round trip).
          for (let i = 0; i < 3; i++) writer.add(row(next++));
          await new Promise((resolve) => setImmediate(resolve));
          batches.push(batch.map((entry) => entry.at));
        },
      },
      batchSize: 10,
      flushIntervalMs: 60_000,
      onError: assert.fail,
    });
    for (; next < 4;) writer.add(row(next++));
    await writer.settle();
    assert.deepEqual(batches, [[0, 1, 2, 3]]);
    assert.equal(writer.stats().buffered, 3);
  });

  it('settle when the batch fails → still resolves, the rows counted as dropped', async () => {
    const writer = createRequestLogWriter({
      store: {
        async write() {
          throw new Error('database unavailable');
        },
      },
      flushIntervalMs: 60_000,
      onError: () => {},
    });
    writer.add(row(0));
    await writer.settle();
    assert.equal(writer.stats().dropped.writeFailed, 1);
  });

  it('one project flooding a full buffer → another project loses none of its rows; drops counted for the flooder', async () => {
    const written: LoggedRequest[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const reports: unknown[] = [];
    const writer = createRequestLogWriter({
      store: {
        async write(batch) {
          await held;
          written.push(...batch);
        },
      },
      // prj_b's 20 rows are within its fair share (half) of the buffer.
      maxBuffered: 50,
      batchSize: 5,
      flushIntervalMs: 60_000,
      onError: assert.fail,
      onDropped: (report) => reports.push(report),
    });
    const other = (i: number): LoggedRequest => ({ ...row(10_000 + i), projectId: 'prj_b', keyId: 'key_b' });
    for (let i = 0; i < 2_000; i++) {
      writer.add({ ...row(i), status: 201 });
      if (i % 100 === 0) writer.add(other(i));
      if (i === 10) await new Promise((resolve) => setImmediate(resolve));
    }
    release();
    await writer.flush();
    assert.equal(written.filter((entry) => entry.projectId === 'prj_b').length, 20, 'prj_b lost nothing');
    const stats = writer.stats();
    assert.equal(stats.dropped.bufferFull, 2_020 - written.length);
    assert.deepEqual(stats.droppedProjects, [{ name: 'prj_a', count: stats.dropped.bufferFull }]);
    assert.deepEqual(
      reports[0],
      { rows: 1, projects: [{ name: 'prj_a', count: 1 }] },
      'the first drop at once',
    );
    const reported = (reports as { rows: number }[]).reduce((sum, report) => sum + report.rows, 0);
    assert.equal(reported, stats.dropped.bufferFull, 'flush reports the rest');
  });

  it('refusals (429) of one project within one second → one row with their number, whichever key; another second or project, another row', async () => {
    const batches: (readonly LoggedRequest[])[] = [];
    const writer = createRequestLogWriter({
      store: { write: async (batch) => void batches.push(batch) },
      flushIntervalMs: 60_000,
      onError: assert.fail,
    });
    const refusal = (at: number, code = 'temporarily_banned'): LoggedRequest => ({
      ...row(at),
      status: 429,
      code,
    });
    for (let i = 0; i < 500; i++) writer.add(refusal(1_000 + i));
    writer.add(refusal(1_999, 'rate_limited'));
    writer.add(refusal(2_000));
    writer.add({ ...refusal(2_001), keyId: 'key_other' });
    writer.add({ ...refusal(2_002), projectId: 'prj_other', keyId: 'key_theirs' });
    await writer.flush();
    const rows = batches.flat();
    assert.deepEqual(
      rows.map((entry) => [entry.at, entry.keyId, entry.code, entry.count ?? 1]),
      [
        [1_000, 'key_a', 'temporarily_banned', 500],
        [1_999, 'key_a', 'rate_limited', 1],
        [2_000, 'key_a', 'temporarily_banned', 2],
        [2_002, 'key_theirs', 'temporarily_banned', 1],
      ],
    );
    assert.deepEqual(
      [...rows[2]!.countsByKey!],
      [
        ['key_a', 1],
        ['key_other', 1],
      ],
    );
    assert.equal(writer.stats().coalesced, 500);
  });

  describe('usage counted in memory (a store with addUsage)', () => {
    const usageStore = () => {
      const rows: { count: number; usage: boolean | undefined }[] = [];
      const cells: UsageCell[][] = [];
      let failNext = 0;
      return {
        rows,
        cells,
        fail: (times: number) => (failNext = times),
        store: {
          async write(batch: readonly LoggedRequest[], options?: { usage?: boolean }) {
            rows.push({ count: batch.length, usage: options?.usage });
          },
          async addUsage(written: readonly UsageCell[]) {
            if (failNext > 0) {
              failNext--;
              throw new Error('database unavailable');
            }
            cells.push([...written]);
          },
        },
      };
    };
    const total = (cells: UsageCell[][]) => cells.flat().reduce((sum, cell) => sum + cell.count, 0);

    it('rows are written without their usage; the cells wait for usageFlushMs, counted together', async () => {
      const { store, rows, cells } = usageStore();
      const writer = createRequestLogWriter({ store, batchSize: 2, usageFlushMs: 30, onError: assert.fail });
      for (let i = 0; i < 6; i++) writer.add(row(i));
      await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(rows, [
        { count: 2, usage: false },
        { count: 2, usage: false },
        { count: 2, usage: false },
      ]);
      assert.deepEqual(cells, []);
      assert.equal(
        writer.stats().usagePending,
        1,
        'six requests of one key, hour, class and bucket: one cell',
      );
      await new Promise((resolve) => setTimeout(resolve, 60));
      assert.equal(cells.length, 1);
      assert.equal(total(cells), 6);
      assert.equal(writer.stats().usagePending, 0);
    });

    it('flush and settle write the counted cells at once', async () => {
      const { store, cells } = usageStore();
      const writer = createRequestLogWriter({ store, usageFlushMs: 60_000, onError: assert.fail });
      writer.add(row(1));
      await writer.settle();
      assert.equal(total(cells), 1);
      writer.add(row(2));
      writer.add({ ...row(3), keyId: 'key_b' });
      await writer.flush();
      assert.equal(total(cells), 3);
      assert.deepEqual(
        cells[1]!.map((cell) => cell.keyId),
        ['key_a', 'key_b'],
      );
    });

    it('maxUsageCells reached → the cells are written at once, in slices of USAGE_WRITE_CELLS', async () => {
      const { store, cells } = usageStore();
      const writer = createRequestLogWriter({
        store,
        batchSize: 500,
        usageFlushMs: 60_000,
        maxUsageCells: USAGE_WRITE_CELLS + 10,
        onError: assert.fail,
      });
      for (let i = 0; i < USAGE_WRITE_CELLS + 10; i++) writer.add({ ...row(i), keyId: `key_${i}` });
      await writer.settle();
      assert.deepEqual(
        cells.map((slice) => slice.length),
        [USAGE_WRITE_CELLS, 10],
      );
    });

    it('a usage write that fails → reported, its cells kept and written with the next, nothing lost', async () => {
      const { store, cells, fail } = usageStore();
      const errors: number[] = [];
      const writer = createRequestLogWriter({
        store,
        usageFlushMs: 60_000,
        onError: (_error, rows) => errors.push(rows),
      });
      fail(1);
      writer.add(row(1));
      await writer.settle();
      assert.deepEqual(errors, [0], 'no row lost');
      assert.equal(writer.stats().usagePending, 1);
      writer.add(row(2));
      await writer.flush();
      assert.equal(total(cells), 2);
      assert.equal(writer.stats().usagePending, 0);
    });
  });
});
