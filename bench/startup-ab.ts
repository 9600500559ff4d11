import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './compare.ts';
import { seedPeerDatabase } from './peers/servers.ts';
import { freePort, type Started, startPinned, stop, treeCpuMs, waitForStatus } from './processes.ts';
import { buildCheckout, createKey, seedSqlite, startNodeFlags } from './seed.ts';

const HELP = `node bench/startup-ab.ts --a DIR [--b DIR] [--runs N] [--npm] [--peer]

Start-up of the server of the checkout at --a (and --b) to its first authenticated 200 of
GET /v1/pets?limit=20, started in turns (A B A B …, after one warm-up round), each pinned to core 0:
as node direct (node with npm start's flags, bin/petstore.js serve), with --npm also as \`npm start\`,
with --peer beside the Fastify peer (bench/peers). Prints the wall time and the CPU time of the process
(its children and threads included) until that answer, as min, median and max, and each side's ratio to
the Fastify peer. Each checkout is built first (npm run build), as npm ci leaves it.

  --a DIR, --b DIR   repository roots
  --runs N           rounds (default 9)
  --pets N           pets seeded (default 10000)`;

interface Side {
  label: string;
  start(port: number, db: string): Started;
  wallMs: number[];
  cpuMs: number[];
}

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    runs: { type: 'string', default: '9' },
    pets: { type: 'string', default: '10000' },
    npm: { type: 'boolean' },
    peer: { type: 'boolean' },
    help: { type: 'boolean' },
  },
});
if (values.help || !values.a) {
  console.log(HELP);
  process.exit(values.help ? 0 : 2);
}

const CORE = '0';
const roots = [values.a, ...(values.b ? [values.b] : [])].map((root) => buildCheckout(resolve(root)));
const scratch = mkdtempSync(join(tmpdir(), 'startup-ab-'));
const log = (name: string) => join(scratch, `${name}.log`);
const sides: Side[] = [];
roots.forEach((root, index) => {
  const name = 'AB'[index]!;
  const env = (port: number, db: string) => ({ ...process.env, DATABASE_URL: db, PORT: String(port) });
  sides.push({
    label: `${name} node direct`,
    start: (port, db) =>
      startPinned(
        CORE,
        process.execPath,
        [...startNodeFlags(root), join(root, 'packages/cli/bin/petstore.js'), 'serve'],
        {
          env: env(port, db),
          logFile: log(`${name}-direct`),
        },
      ),
    wallMs: [],
    cpuMs: [],
  });
  if (values.npm) {
    sides.push({
      label: `${name} npm start`,
      start: (port, db) =>
        startPinned(CORE, 'npm', ['--prefix', root, 'start', '--silent'], {
          env: env(port, db),
          logFile: log(`${name}-npm`),
        }),
      wallMs: [],
      cpuMs: [],
    });
  }
});

try {
  const template = join(scratch, 'template.db');
  await seedSqlite(template, Number(values.pets), join(roots[0]!, 'packages/cli/bin/petstore.js'));
  const key = createKey(template, join(roots[0]!, 'packages/cli/bin/petstore.js'));
  const peerTemplate = join(scratch, 'peer.db');
  const peerKey = values.peer ? seedPeerDatabase(peerTemplate, Number(values.pets)) : '';
  if (values.peer) {
    const script = new URL('./peers/fastify-peer.ts', import.meta.url).pathname;
    sides.push({
      label: 'Fastify peer',
      start: (port, db) =>
        startPinned(CORE, process.execPath, [script], {
          env: { ...process.env, DATABASE_PATH: db, PORT: String(port) },
          logFile: log('fastify'),
        }),
      wallMs: [],
      cpuMs: [],
    });
  }
  const load = loadavg()[0]!.toFixed(1);
  let copies = 0;
  for (let round = -1; round < Number(values.runs); round++) {
    for (const side of sides) {
      const peer = side.label === 'Fastify peer';
      const db = join(scratch, `run-${(copies += 1)}.db`);
      copyFileSync(peer ? peerTemplate : template, db);
      const port = await freePort();
      const started = side.start(port, db);
      const url = `http://127.0.0.1:${port}/v1/pets?limit=20`;
      const readyAt = await waitForStatus(started, url, { authorization: `Bearer ${peer ? peerKey : key}` });
      const cpu = treeCpuMs(started.pid);
      await stop(started);
      if (round < 0) continue;
      side.wallMs.push(readyAt - started.spawnedAt);
      side.cpuMs.push(cpu);
    }
  }
  const spread = (list: number[]) =>
    `${median(list).toFixed(0)} (${Math.min(...list).toFixed(0)}–${Math.max(...list).toFixed(0)})`;
  const peerSide = sides.find((side) => side.label === 'Fastify peer');
  console.log(
    `start-up to the first 200: ${values.runs} rounds, load average ${load} → ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log(`| side | wall ms | CPU ms |${peerSide ? ' ÷ Fastify peer (wall, CPU) |' : ''}`);
  console.log(`|---|---|---|${peerSide ? '---|' : ''}`);
  for (const side of sides) {
    const ratio = (pick: (s: Side) => number[]) => (median(pick(side)) / median(pick(peerSide!))).toFixed(2);
    const ofPeer = peerSide ? ` ${ratio((s) => s.wallMs)}×, ${ratio((s) => s.cpuMs)}× |` : '';
    console.log(`| ${side.label} | ${spread(side.wallMs)} | ${spread(side.cpuMs)} |${ofPeer}`);
  }
  for (const [index, root] of roots.entries()) console.log(`${'AB'[index]}: ${root}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
