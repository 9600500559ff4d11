// One side of the owner race on SQLite: a thread with its own connection to the file, as a second
// process would have (test/owner-race-sqlite.test.ts). Each round it waits for the other side at a
// barrier, then removes or demotes the other owner of that round's project.
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import { openStore } from '../src/features/store.ts';

const { path, rounds, me, other, barrier } = workerData as {
  path: string;
  rounds: number;
  me: number;
  other: string;
  barrier: SharedArrayBuffer;
};
const arrived = new Int32Array(barrier);
const storage = openStore(new SqliteStorage(path));
const outcomes: string[] = [];
for (let round = 0; round < rounds; round++) {
  Atomics.add(arrived, round, 1);
  Atomics.notify(arrived, round);
  while (Atomics.load(arrived, round) < 2) Atomics.wait(arrived, round, 1, 1_000);
  const projectId = `prj_race-${round}`;
  const demote = (round + me) % 2 === 0;
  const changed = demote
    ? await storage.projects.setRole(other, projectId, 'viewer')
    : await storage.projects.removeMember(other, projectId);
  outcomes.push(changed.outcome);
}
await storage.close();
parentPort!.postMessage(outcomes);
