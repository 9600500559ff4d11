import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createHashingGate, type GateTicket } from './hashing-gate.ts';

/** A job the test finishes by hand. */
function manualJob(name = '') {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const settled = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const job = { name, started: false, finish, fail, run: () => ((job.started = true), settled) };
  return job;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const unknown = (address: string): GateTicket => ({ lane: `address:${address}`, priority: false });
const known = (account: string): GateTicket => ({ lane: `account:${account}`, priority: true });

describe('hashing gate', () => {
  it('run → at most `concurrent` jobs at once, then a queue of `waiting`, then ran: false without running the job', async () => {
    const gate = createHashingGate({ concurrent: 2, waiting: 1, perLane: 2 });
    const jobs = [manualJob(), manualJob(), manualJob(), manualJob()];
    const runs = jobs.map((job, i) => gate.run(unknown(`10.0.0.${i}`), job.run));
    await turn();
    assert.deepEqual(
      jobs.map((job) => job.started),
      [true, true, false, false],
    );
    assert.deepEqual(await runs[3], { ran: false }, 'the fourth is refused');
    assert.deepEqual(gate.load(), { running: 2, waiting: 1 });
    jobs[0]!.finish('first');
    assert.deepEqual(await runs[0], { ran: true, value: 'first' });
    await turn();
    assert.equal(jobs[2]!.started, true, 'a finished job hands its slot to the next in line');
    jobs[1]!.finish('second');
    jobs[2]!.finish('third');
    assert.deepEqual(await Promise.all([runs[1], runs[2]]), [
      { ran: true, value: 'second' },
      { ran: true, value: 'third' },
    ]);
    assert.equal(jobs[3]!.started, false);
    assert.deepEqual(gate.load(), { running: 0, waiting: 0 });
  });

  it('run → a failed job passes its error on and frees its slot', async () => {
    const gate = createHashingGate({ concurrent: 1, waiting: 0, perLane: 1 });
    const failing = manualJob();
    const run = gate.run(unknown('a'), failing.run);
    assert.deepEqual(await gate.run(unknown('b'), manualJob().run), { ran: false });
    failing.fail(new Error('scrypt failed'));
    await assert.rejects(run, /scrypt failed/);
    assert.deepEqual(await gate.run(unknown('a'), async () => 'next'), { ran: true, value: 'next' });
  });

  it('run → one address holds at most `perLane` waiting; lanes take turns (fair per address)', async () => {
    const gate = createHashingGate({ concurrent: 1, waiting: 10, perLane: 2 });
    const order: string[] = [];
    const blocker = manualJob();
    const blocked = gate.run(unknown('x'), blocker.run);
    const job = (name: string) => async () => void order.push(name);
    const runs = [
      gate.run(unknown('a'), job('a1')),
      gate.run(unknown('a'), job('a2')),
      gate.run(unknown('a'), job('a3')),
      gate.run(unknown('b'), job('b1')),
      gate.run(unknown('c'), job('c1')),
    ];
    assert.deepEqual(await runs[2], { ran: false }, 'a third waiting check from one address is refused');
    blocker.finish('done');
    await blocked;
    await Promise.all(runs);
    assert.deepEqual(order, ['a1', 'b1', 'c1', 'a2']);
  });

  it('run → known devices go first; a full queue makes room for one by refusing the newest check of the longest unknown lane', async () => {
    const gate = createHashingGate({ concurrent: 1, waiting: 3, perLane: 2 });
    const order: string[] = [];
    const blocker = manualJob();
    const blocked = gate.run(unknown('x'), blocker.run);
    const job = (name: string) => async () => void order.push(name);
    const a1 = gate.run(unknown('a'), job('a1'));
    const a2 = gate.run(unknown('a'), job('a2'));
    const b1 = gate.run(unknown('b'), job('b1'));
    assert.deepEqual(await gate.run(unknown('c'), job('c1')), { ran: false }, 'full for unknown devices');
    const owner = gate.run(known('ann'), job('ann'));
    assert.deepEqual(await a2, { ran: false }, 'the newest of the longest lane made room');
    blocker.finish('done');
    await blocked;
    assert.deepEqual(await owner, { ran: true, value: undefined });
    await Promise.all([a1, b1]);
    assert.deepEqual(order, ['ann', 'a1', 'b1']);
  });

  it('run → a full queue of known devices refuses one more known device', async () => {
    const gate = createHashingGate({ concurrent: 1, waiting: 1, perLane: 1 });
    const blocker = manualJob();
    void gate.run(known('x'), blocker.run);
    void gate.run(known('ann'), async () => 'ann');
    assert.deepEqual(await gate.run(known('bob'), async () => 'bob'), { ran: false });
    blocker.finish('done');
  });

  it('run → never more than the limits; every admitted job runs once or is refused once (generated schedules)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          concurrent: fc.integer({ min: 1, max: 3 }),
          waiting: fc.integer({ min: 0, max: 5 }),
          perLane: fc.integer({ min: 1, max: 3 }),
        }),
        fc.array(
          fc.oneof(
            fc.record({ lane: fc.constantFrom('a', 'b', 'c', 'd'), priority: fc.boolean() }),
            fc.constant('finish' as const),
          ),
          { maxLength: 60 },
        ),
        fc.infiniteStream(fc.nat()),
        async (limits, steps, picks) => {
          const gate = createHashingGate(limits);
          const outcomes: Promise<unknown>[] = [];
          const jobs: ReturnType<typeof manualJob>[] = [];
          let submitted = 0;
          for (const step of steps) {
            if (step === 'finish') {
              const running = jobs.filter((job) => job.started);
              if (running.length > 0) {
                const job = running[picks.next().value % running.length]!;
                jobs.splice(jobs.indexOf(job), 1);
                job.finish('done');
              }
            } else {
              const job = manualJob();
              jobs.push(job);
              submitted++;
              outcomes.push(
                gate.run({ lane: step.lane, priority: step.priority }, job.run).then((outcome) => {
                  if (!outcome.ran) jobs.splice(jobs.indexOf(job), 1);
                  return outcome;
                }),
              );
            }
            await turn();
            const { running, waiting } = gate.load();
            assert.ok(running <= limits.concurrent && waiting <= limits.waiting);
            assert.equal(jobs.filter((job) => job.started).length, running);
          }
          while (jobs.length > 0) {
            const job = jobs.find((candidate) => candidate.started);
            assert.ok(job, 'a queued job starts once a slot frees');
            jobs.splice(jobs.indexOf(job), 1);
            job.finish('done');
            await turn();
          }
          assert.equal((await Promise.all(outcomes)).length, submitted);
          assert.deepEqual(gate.load(), { running: 0, waiting: 0 });
        },
      ),
      { numRuns: 200 },
    );
  });
});
