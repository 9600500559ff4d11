import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { RESULT_MARK } from './load.ts';

/**
 * One client on one keep-alive connection walking every page: follows `Link: <…>; rel="next"` from
 * --path until the last page, checking that ids only ascend; or, with --requests N, sends N GETs of
 * --path (the baseline's equivalent). Prints {pages, pets, ms} as a result line.
 */
const { values } = parseArgs({
  options: {
    origin: { type: 'string' },
    path: { type: 'string' },
    key: { type: 'string' },
    requests: { type: 'string' },
  },
});
const origin = values.origin!;
const headers = values.key ? { authorization: `Bearer ${values.key}` } : {};
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

interface Page {
  status: number;
  link: string | undefined;
  body: string;
}

function get(path: string): Promise<Page> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { headers, agent });
    req.once('error', reject);
    req.once('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.once('end', () => {
        const link = res.headers.link;
        resolve({ status: res.statusCode ?? 0, link: typeof link === 'string' ? link : undefined, body });
      });
    });
    req.end();
  });
}

const NEXT = /<([^>]+)>;\s*rel="next"/;
let pages = 0;
let pets = 0;
let lastId = 0n;
const latencies: number[] = [];
const timed = async (path: string): Promise<Page> => {
  const before = performance.now();
  const page = await get(path);
  latencies.push(performance.now() - before);
  return page;
};
const started = performance.now();
if (values.requests !== undefined) {
  for (let i = 0; i < Number(values.requests); i += 1) {
    const page = await timed(values.path!);
    if (page.status !== 200) throw new Error(`GET ${values.path} answered ${page.status}`);
    pages += 1;
  }
} else {
  let path: string | undefined = values.path!;
  while (path !== undefined) {
    const page = await timed(path);
    if (page.status !== 200) throw new Error(`GET ${path} answered ${page.status}: ${page.body}`);
    const ids = [...page.body.matchAll(/"id":(\d+)/g)].map((match) => BigInt(match[1]!));
    for (const id of ids) {
      if (id <= lastId) throw new Error(`ids went backwards at ${id} after ${lastId}`);
      lastId = id;
    }
    pages += 1;
    pets += ids.length;
    path = page.link === undefined ? undefined : NEXT.exec(page.link)?.[1];
  }
}
const ms = performance.now() - started;
agent.destroy();
latencies.sort((a, b) => a - b);
const medianMs = latencies[Math.floor((latencies.length - 1) / 2)] ?? 0;
const p99Ms = latencies[Math.floor((latencies.length - 1) * 0.99)] ?? 0;
console.log(`${RESULT_MARK}${JSON.stringify({ pages, pets, ms, medianMs, p99Ms })}`);
