import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/**
 * Summarises V8 CPU profiles (`node --cpu-prof`, e.g. from `npm run bench -- --profile DIR`): time by
 * package, the functions with the most self time, and the project's functions by inclusive time.
 * With --callers NAME, also which functions call NAME (by the nearest caller with another name):
 * `node bench/profile-summary.ts FILE.cpuprofile… [--top N] [--callers writeUtf8String]`
 */
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const ROOT = new URL('..', import.meta.url).href;
const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

function where(frame: CallFrame): string {
  const url = frame.url.startsWith(ROOT) ? frame.url.slice(ROOT.length) : frame.url;
  const trimmed = url.replace(/^.*node_modules\//, '');
  return trimmed ? `${trimmed}:${frame.lineNumber + 1}` : '';
}

function keyOf(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  const at = where(frame);
  return at ? `${name}  ${at}` : name;
}

function category(frame: CallFrame): string {
  if (SPECIAL.has(frame.functionName) && !frame.url) return frame.functionName;
  const { url } = frame;
  if (!url) return '(native: V8 builtins, node:sqlite, crypto)';
  if (url.startsWith('node:')) return 'node: internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.includes('/packages/')) return 'petstore source';
  return url;
}

function add(map: Map<string, number>, key: string, micros: number): void {
  map.set(key, (map.get(key) ?? 0) + micros);
}

const USAGE = `node bench/profile-summary.ts FILE.cpuprofile… [--top N] [--callers NAME]

  Time by package, the N functions with the most self time (default 25) and the project's functions by
  inclusive time, over the V8 CPU profiles given (node --cpu-prof, npm run bench -- --profile DIR).
  --callers NAME   also which functions call NAME (the nearest caller with another name).`;

const { values, positionals } = parseArgs({
  options: { top: { type: 'string', default: '25' }, callers: { type: 'string' }, help: { type: 'boolean' } },
  allowPositionals: true,
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (positionals.length === 0) {
  console.error(`usage: ${USAGE}`);
  process.exit(2);
}
const top = Number(values.top);
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const byCategory = new Map<string, number>();
const callers = new Map<string, number>();
let total = 0;
let idle = 0;

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    const frame = nodes.get(id)!.callFrame;
    total += micros;
    if (frame.functionName === '(idle)') idle += micros;
    add(self, keyOf(frame), micros);
    add(byCategory, category(frame), micros);
    if (values.callers !== undefined && frame.functionName === values.callers) {
      let at = parent.get(id);
      while (at !== undefined && nodes.get(at)!.callFrame.functionName === values.callers)
        at = parent.get(at);
      const caller: string[] = [];
      for (; at !== undefined && caller.length < 8; at = parent.get(at))
        caller.push(keyOf(nodes.get(at)!.callFrame));
      add(callers, caller.join(' < '), micros);
    }
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const ancestor = nodes.get(at)!.callFrame;
      if (!ancestor.url.includes('/packages/')) continue;
      const key = keyOf(ancestor);
      if (!seen.has(key)) add(inclusive, key, micros);
      seen.add(key);
    }
  });
}

const busy = total - idle;
const ms = (micros: number) => (micros / 1000).toFixed(0).padStart(7);
const share = (micros: number) => `${((micros / busy) * 100).toFixed(1).padStart(5)} %`;
const list = (map: Map<string, number>, count: number, skipIdle = true) =>
  [...map]
    .filter(([key]) => !(skipIdle && key === '(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, micros]) => `${ms(micros)} ms ${share(micros)}  ${key}`)
    .join('\n');

console.log(
  `${positionals.length} profile(s): ${ms(total).trim()} ms sampled, ${ms(busy).trim()} ms busy (not idle); % of busy time\n`,
);
console.log(`By package (self time):\n${list(byCategory, 15)}\n`);
console.log(`Top ${top} functions by self time:\n${list(self, top)}\n`);
console.log(`Project functions by inclusive time (callees included):\n${list(inclusive, top)}`);
if (values.callers !== undefined) {
  console.log(
    `\nCallers of ${values.callers} (self time of ${values.callers}; nearest eight frames):\n${list(callers, top)}`,
  );
}
