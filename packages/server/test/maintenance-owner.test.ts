import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { maintenanceJobs } from '../src/maintenance/jobs.ts';
import { createLease } from '../src/maintenance/lease.ts';
import {
  FIRST_RUN_DELAY_MS,
  LEASE_TTL_MS,
  MAINTENANCE_TICK_MS,
  type MaintenanceJob,
  startMaintenance,
} from '../src/maintenance/scheduler.ts';
import { openStore, type ReversibleStore } from '../src/features/store.ts';
import { PostgresStorage } from '../src/storage/postgres.ts';
import { PURGE_SLICE_BATCHES } from '../src/features/requests/request-log-sqlite.ts';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import { FakeClock } from '../src/time/clock.ts';
import { reusableSchema, type ReusableSchema } from './postgres-schema.ts';
import { service } from './services.ts';
import { project } from './storage-contract-projects.ts';
import { logged } from './storage-contract-request-log.ts';

const postgres = await service('postgres');
const url = 'url' in postgres ? postgres.url : '';

const DAY = 86_400_000;
const quiet = { info: () => {}, warn: () => {} };

interface Instance {
  storage: ReversibleStore;
  runs: Map<string, number>;
  maintenance: ReturnType<typeof startMaintenance>;
}

/** The same two jobs in each instance, each counting its runs there. */
function instance(storage: ReversibleStore, clock: FakeClock, owner: string): Instance {
  const runs = new Map<string, number>();
  const job = (what: string, intervalMs: number): MaintenanceJob => ({
    what,
    intervalMs,
    run: async () => {
      runs.set(what, (runs.get(what) ?? 0) + 1);
      return 0;
    },
  });
  const lease = createLease({ sql: storage.sql, clock, name: 'maintenance', owner, ttlMs: LEASE_TTL_MS });
  const maintenance = startMaintenance([job('purge', 60_000), job('checks', MAINTENANCE_TICK_MS)], {
    lease,
    clock,
    log: quiet,
    timer: false,
  });
  return { storage, runs, maintenance };
}

const runsOf = (one: Instance, what: string) => one.runs.get(what) ?? 0;

function ownerContract(name: string, open: () => Promise<ReversibleStore>, reset: () => Promise<void>) {
  describe(`maintenance on ${name}: one owner at a time`, () => {
    const opened: ReversibleStore[] = [];
    const two = async (clock: FakeClock) => {
      const a = await open();
      const b = await open();
      opened.push(a, b);
      return [instance(a, clock, 'a'), instance(b, clock, 'b')] as const;
    };
    const closeAll = async (instances: readonly Instance[]) => {
      for (const one of instances) await one.maintenance.stop();
      for (const storage of opened.splice(0)) await storage.close();
      await reset();
    };

    it('two instances on one database → only one runs each job, each time it is due; none at start-up', async () => {
      const clock = new FakeClock();
      const instances = await two(clock);
      try {
        await Promise.all(instances.map((one) => one.maintenance.tick()));
        assert.equal(instances.filter((one) => one.maintenance.owns()).length, 1);
        assert.deepEqual(
          instances.map((one) => one.runs.size),
          [0, 0],
          'nothing at start-up',
        );
        for (let round = 0; round < 8; round++) {
          clock.advance(MAINTENANCE_TICK_MS);
          await Promise.all(instances.map((one) => one.maintenance.tick()));
        }
        const [owner, other] = instances[0].maintenance.owns() ? instances : [instances[1], instances[0]];
        assert.equal(other.runs.size, 0, 'the other instance ran nothing');
        // Two minutes: the purge (every minute) from FIRST_RUN_DELAY_MS on, the checks every tick.
        assert.equal(FIRST_RUN_DELAY_MS, 60_000);
        assert.equal(runsOf(owner, 'purge'), 2);
        assert.equal(runsOf(owner, 'checks'), 8);
      } finally {
        await closeAll(instances);
      }
    });

    it('the owner stops → the lease is let go, and the other instance takes it and runs what is due', async () => {
      const clock = new FakeClock();
      const [a, b] = await two(clock);
      try {
        await a.maintenance.tick();
        await b.maintenance.tick();
        assert.ok(a.maintenance.owns() && !b.maintenance.owns());
        await a.maintenance.stop();
        clock.advance(FIRST_RUN_DELAY_MS);
        await b.maintenance.tick();
        assert.ok(b.maintenance.owns());
        assert.equal(runsOf(b, 'purge'), 1);
        assert.equal(a.runs.size, 0);
      } finally {
        await closeAll([a, b]);
      }
    });

    it('an owner that stops renewing (a crash) → the other takes over once the lease expires, not before', async () => {
      const clock = new FakeClock();
      const [a, b] = await two(clock);
      try {
        await a.maintenance.tick();
        clock.advance(LEASE_TTL_MS - 1);
        await b.maintenance.tick();
        assert.ok(!b.maintenance.owns());
        clock.advance(1);
        await b.maintenance.tick();
        assert.ok(b.maintenance.owns());
        // The old owner, back while its purge is due, finds the lease taken and runs nothing.
        clock.advance(MAINTENANCE_TICK_MS);
        await a.maintenance.tick();
        assert.ok(!a.maintenance.owns());
        assert.equal(a.runs.size, 0);
      } finally {
        await closeAll([a, b]);
      }
    });

    it('a long run renews the lease between slices; once another instance holds it, the run stops at its next slice', async () => {
      const clock = new FakeClock();
      const storage = await open();
      const other = await open();
      opened.push(storage, other);
      const lease = (sql: ReversibleStore['sql'], owner: string) =>
        createLease({ sql, clock, name: 'maintenance', owner, ttlMs: LEASE_TTL_MS });
      let slices = 0;
      const long: MaintenanceJob = {
        what: 'long',
        intervalMs: FIRST_RUN_DELAY_MS,
        run: async (_now, slice) => {
          for (;;) {
            slices++;
            clock.advance(MAINTENANCE_TICK_MS);
            // Past two lease lifetimes the renewals have kept it: the other instance takes it then.
            if (slices === 10) {
              await other.sql.run('UPDATE maintenance_leases SET owner = $1', ['other']);
            }
            if (!(await slice())) return slices;
          }
        },
      };
      const maintenance = startMaintenance([long], {
        lease: lease(storage.sql, 'mine'),
        clock,
        log: quiet,
        timer: false,
      });
      await maintenance.tick();
      clock.advance(FIRST_RUN_DELAY_MS);
      await maintenance.tick();
      assert.equal(slices, 10);
      assert.ok(!maintenance.owns());
      assert.equal(
        await lease(other.sql, 'third').acquire(),
        false,
        'the other instance holds it, unexpired',
      );
      await maintenance.stop();
      await closeAll([]);
    });

    it('the request log purge through the owner → in slices of a bounded size, the event loop turning between them', async () => {
      const clock = new FakeClock(Date.UTC(2026, 0, 10));
      const storage = await open();
      opened.push(storage);
      await storage.projects.create(project('acme', { plan: 'free' }));
      const day = Math.floor(clock.now() / DAY) * DAY;
      const batches = 3 * PURGE_SLICE_BATCHES + 5;
      // One batch a write, over three days: three partitions on PostgreSQL.
      for (let n = 0; n < batches; n++)
        await storage.requestLog.write([logged({ requestId: `r${n}`, at: day + (n % 3) * DAY + n })]);
      clock.advance(10 * DAY);
      const purge = maintenanceJobs(storage, undefined).find((job) => job.what.startsWith('request log'))!;
      let turns = 0;
      let slices = 0;
      const removed = await purge.run(clock.now(), async () => {
        const before = turns;
        await new Promise((resolve) => setImmediate(resolve));
        turns++;
        slices++;
        assert.equal(turns, before + 1);
        return true;
      });
      assert.equal(removed, batches);
      assert.ok(
        slices >= (name === 'SQLite' ? Math.floor(batches / PURGE_SLICE_BATCHES) : 2),
        `${slices} slices`,
      );
      await closeAll([]);
    });
  });
}

const dir = await mkdtemp(join(tmpdir(), 'petstore-maintenance-'));
let file = 0;
let path = join(dir, `${file}.db`);
ownerContract(
  'SQLite',
  async () => {
    const storage = openStore(new SqliteStorage(path));
    await storage.migrate();
    return storage;
  },
  async () => {
    path = join(dir, `${++file}.db`);
  },
);
after(() => rm(dir, { recursive: true, force: true }));

describe('maintenance on PostgreSQL', { skip: 'skip' in postgres ? postgres.skip : false }, () => {
  let admin: pg.Pool;
  let shared: ReusableSchema;
  before(() => {
    admin = new pg.Pool({ connectionString: url, max: 2 });
    shared = reusableSchema(admin);
  });
  after(async () => {
    await shared.drop();
    await admin.end();
  });
  ownerContract(
    'PostgreSQL',
    async () => {
      const storage = openStore(new PostgresStorage({ url, schema: shared.name, poolSize: 3 }));
      await storage.migrate();
      return storage;
    },
    () => shared.reset(),
  );
});
