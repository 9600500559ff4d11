import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { Harness } from './harness.ts';
import { type BenchOptions, readOptions } from './options.ts';
import { SCENARIO_RUNNERS } from './scenarios.ts';
import { buildCheckout } from './seed.ts';
import { markdownTable, type Row, textTable } from './table.ts';

function requireTools(): void {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24)
    throw new Error(`Node ${process.version}: run with Node 24 (npm run bench uses the pinned one)`);
  if (spawnSync('taskset', ['-V'], { stdio: 'ignore' }).error) {
    throw new Error('taskset is not on PATH (util-linux; apt-get install util-linux)');
  }
}

function load(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

function cpuModel(): string {
  try {
    return /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown';
  } catch {
    return cpus()[0]?.model ?? 'unknown';
  }
}

/** The commit measured, and whether the working tree differs from it. */
function revision(): string {
  const git = (...args: string[]) => spawnSync('git', args, { encoding: 'utf8' }).stdout?.trim() ?? '';
  const commit = git('rev-parse', '--short', 'HEAD') || 'unknown commit';
  return git('status', '--porcelain', '--', 'packages') ? `${commit} + uncommitted changes` : commit;
}

function fileSystem(dir: string): string {
  return spawnSync('stat', ['-f', '-c', '%T', dir], { encoding: 'utf8' }).stdout?.trim() || 'unknown';
}

function describe(options: BenchOptions, startLoad: string, endLoad: string): string[] {
  return [
    `finished: ${new Date().toISOString()}`,
    `machine: ${cpus().length} cores, ${cpuModel()}; load average before ${startLoad}, after ${endLoad}`,
    `petstore ${revision()}; node ${process.version}; load generator ${options.tool} (${options.connections} connections, ` +
      `${options.durationSeconds} s after ${options.warmupSeconds} s warm-up), pinned to core 1; ` +
      'servers pinned to core 0 unless noted',
    `LOG_LEVEL ${options.logLevel ?? 'unset (server default: info)'}; ${options.pets.toLocaleString('en-US')} pets; ` +
      `databases in ${options.dir} (${fileSystem(options.dir)})`,
  ];
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  if (!options) return 0;
  requireTools();
  // The project runs as `npm ci` leaves it: built (its dependency bundle current), its sources as they are.
  buildCheckout();
  const workDir = mkdtempSync(join(options.dir, 'petstore-bench-'));
  const harness = new Harness(options, workDir);
  const interrupted = () => {
    harness.stopAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const startLoad = load();
  const rows: Row[] = [];
  let failed = false;
  try {
    for (const scenario of options.scenarios) {
      console.error(`scenario ${scenario} …`);
      try {
        rows.push(...(await SCENARIO_RUNNERS[scenario](harness)));
      } catch (error) {
        failed = true;
        rows.push({ scenario, server: 'failed', note: (error as Error).message.split('\n')[0] });
        console.error(`scenario ${scenario} failed:`, error);
        await harness.stopAll();
      }
    }
  } finally {
    await harness.stopAll();
    if (options.keep) console.error(`kept ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
  const header = describe(options, startLoad, load());
  const output = options.markdown
    ? `${header.map((line) => `- ${line}`).join('\n')}\n\n${markdownTable(rows)}\n`
    : `${header.join('\n')}\n\n${textTable(rows)}\n`;
  process.stdout.write(output);
  if (options.out) {
    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, output);
  }
  if (options.profileDir)
    console.error(`CPU profiles in ${options.profileDir}: node bench/profile-summary.ts FILE`);
  return failed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
