import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createHashingGate } from './hashing-gate.ts';

/** A job the test finishes by hand. */
function manualJob() {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const settled = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const job = { started: false, finish, fail, run: () => ((job.started = true), settled) };
  return job;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('hashing gate', () => {
  it('run → at most `concurrent` jobs at once, then a queue of `waiting`, then undefined without running the job', async () => {
    const gate = createHashingGate({ concurrent: 2, waiting: 1 });
    const jobs = [manualJob(), manualJob(), manualJob(), manualJob()];
    const runs = jobs.map((job) => gate.run(job.run));
    await turn();
    assert.deepEqual(
      jobs.map((job) => job.started),
      [true, true, false, false],
    );
    assert.ok(runs[2], 'the third waits');
    assert.equal(runs[3], undefined, 'the fourth is refused');
    jobs[0]!.finish('first');
    assert.equal(await runs[0], 'first');
    await turn();
    assert.equal(jobs[2]!.started, true, 'a finished job hands its slot to the next in line');
    jobs[1]!.finish('second');
    jobs[2]!.finish('third');
    assert.deepEqual(await Promise.all([runs[1], runs[2]]), ['second', 'third']);
    assert.equal(jobs[3]!.started, false);
  });

  it('run → a failed job passes its error on and frees its slot', async () => {
    const gate = createHashingGate({ concurrent: 1, waiting: 0 });
    const failing = manualJob();
    const run = gate.run(failing.run)!;
    assert.equal(gate.run(manualJob().run), undefined);
    failing.fail(new Error('scrypt failed'));
    await assert.rejects(run, /scrypt failed/);
    assert.equal(await gate.run(async () => 'next'), 'next');
  });

  it('run → never more than `concurrent` at once, every admitted job runs once, the rest refused (generated schedules)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.oneof(fc.constant('submit' as const), fc.constant('finish' as const)), { maxLength: 60 }),
        fc.infiniteStream(fc.nat()),
        async (concurrent, waiting, steps, picks) => {
          const gate = createHashingGate({ concurrent, waiting });
          const admitted: ReturnType<typeof manualJob>[] = [];
          const runs: Promise<string>[] = [];
          let refused = 0;
          for (const step of steps) {
            if (step === 'submit') {
              const inFlight = admitted.filter((job) => job.started).length;
              const queued = admitted.length - inFlight;
              const job = manualJob();
              const run = gate.run(job.run);
              if (run) {
                assert.ok(inFlight < concurrent || queued < waiting, 'admitted only with room');
                admitted.push(job);
                runs.push(run.then(() => 'done'));
              } else {
                assert.ok(inFlight === concurrent && queued === waiting, 'refused only when full');
                refused++;
              }
            } else {
              const running = admitted.filter((job) => job.started);
              if (running.length > 0) {
                const job = running[picks.next().value % running.length]!;
                admitted.splice(admitted.indexOf(job), 1);
                job.finish('done');
              }
            }
            await turn();
            assert.ok(admitted.filter((job) => job.started).length <= concurrent);
          }
          while (admitted.length > 0) {
            const job = admitted.find((candidate) => candidate.started);
            assert.ok(job, 'a queued job starts once a slot frees');
            admitted.splice(admitted.indexOf(job), 1);
            job.finish('done');
            await turn();
          }
          assert.equal(
            (await Promise.all(runs)).length + refused,
            steps.filter((s) => s === 'submit').length,
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
