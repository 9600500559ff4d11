// Which of our files a warm authenticated GET /v1/pets/{petId} and POST /v1/pets run, in order:
// printed as JSON by `node packages/server/test/request-path.ts`. test/request-path.test.ts runs it in
// a process of its own, so no other suite's code can run while a request is traced.
import assert from 'node:assert/strict';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'light-my-request';
import { eventually } from './eventually.ts';
import { makeTestApp } from './harness.ts';
import { assertMatchesContract } from './openapi-validator.ts';

/** The repository's root: files are named relative to it, as the docs name them. */
const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Our own source files (not tests, not helpers of tests, not node_modules), by a script's URL. */
function ourSource(url: string): string | undefined {
  if (!url.startsWith('file:')) return undefined;
  const file = path.relative(ROOT, fileURLToPath(url)).split(path.sep).join('/');
  return /^packages\/[^/]+\/src\//.test(file) && !/\.test\.[jt]s$/.test(file) ? file : undefined;
}

interface Ran {
  scriptId: string;
  file: string;
  startOffset: number;
  endOffset: number;
}

const lineAndColumn = (text: string, offset: number) => {
  const before = text.slice(0, offset);
  const lineNumber = before.split('\n').length - 1;
  return { lineNumber, columnNumber: offset - (before.lastIndexOf('\n') + 1) };
};

/**
 * Which of our source files run during `run`, in the order each is first entered. V8's precise
 * coverage (call counts, reset before `run`) gives the functions that ran; a second `run` with a
 * breakpoint at the start of each of them, whose condition records its file and is false (so nothing
 * ever pauses), gives the order. `run` must do the same work both times (a warm request).
 */
export interface FilesThatRan {
  files: string[];
  order: string[];
}

export async function filesThatRun(run: () => Promise<void>): Promise<FilesThatRan> {
  const session = new Session();
  session.connect();
  const trace: string[] = [];
  const key = `__requestPath${process.pid}`;
  (globalThis as Record<string, unknown>)[key] = trace;
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    await session.post('Profiler.takePreciseCoverage');
    await run();
    const { result } = await session.post('Profiler.takePreciseCoverage');
    await session.post('Profiler.stopPreciseCoverage');
    const ran: Ran[] = [];
    for (const script of result) {
      const file = ourSource(script.url);
      if (file === undefined) continue;
      for (const fn of script.functions) {
        const whole = fn.ranges[0]!;
        // The script's own body ran when it was loaded, not now: it only encloses the functions.
        if (whole.count > 0 && !(whole.startOffset === 0 && fn.functionName === '')) {
          ran.push({
            scriptId: script.scriptId,
            file,
            startOffset: whole.startOffset,
            endOffset: whole.endOffset,
          });
        }
      }
    }
    await session.post('Debugger.enable');
    const sources = new Map<string, string>();
    for (const { scriptId, file, startOffset, endOffset } of ran) {
      if (!sources.has(scriptId)) {
        sources.set(scriptId, (await session.post('Debugger.getScriptSource', { scriptId })).scriptSource);
      }
      const source = sources.get(scriptId)!;
      // The function's own first breakable place: at its start offset V8 would pick the enclosing one's.
      const { locations } = await session.post('Debugger.getPossibleBreakpoints', {
        start: { scriptId, ...lineAndColumn(source, startOffset) },
        end: { scriptId, ...lineAndColumn(source, endOffset) },
        restrictToFunction: true,
      });
      if (locations[0] === undefined) continue;
      await session.post('Debugger.setBreakpoint', {
        location: locations[0],
        condition: `globalThis[${JSON.stringify(key)}].push(${JSON.stringify(file)}), false`,
      });
    }
    await run();
    await session.post('Debugger.disable');
    return { files: [...new Set(ran.map((entry) => entry.file))].sort(), order: [...new Set(trace)] };
  } finally {
    delete (globalThis as Record<string, unknown>)[key];
    session.disconnect();
  }
}

/**
 * One request as a socket brings it, in an event-loop turn of its own (what a turn caches is read
 * again), traced; its answer is checked against the contract afterwards, so the check is not traced.
 */
async function traced(send: () => ReturnType<typeof inject>, method: string, url: string, status: number) {
  let response: Awaited<ReturnType<typeof inject>> | undefined;
  const ran = await filesThatRun(async () => {
    await new Promise((resolve) => setImmediate(resolve));
    response = await send();
  });
  const { statusCode, headers, body } = response!;
  assert.equal(statusCode, status, body);
  assertMatchesContract({ method, path: url, status, headers: headers as Record<string, string>, body });
  return ran;
}

if (import.meta.main) {
  // Nothing of ours runs on a timer while a request is traced: the change feed, the request log's
  // batches and the outbox's look for mail due wait an hour (of the real clock; the app's own clock is
  // a fake one).
  const app = await makeTestApp({
    changePollMs: 3_600_000,
    requestLog: { flushIntervalMs: 3_600_000 },
    mailPollMs: 3_600_000,
  });
  const headers = { authorization: `Bearer ${app.key}` };
  const get = () => inject(app.app.dispatch, { url: '/v1/pets/7', headers });
  const create = () =>
    inject(app.app.dispatch, {
      method: 'POST',
      url: '/v1/pets',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"name":"Rex","categoryId":1}',
    });
  // Warm: every lazy part loaded, the key's lookup cached, the pets in memory.
  for (let i = 0; i < 20; i++) assert.equal((await create()).statusCode, 201);
  for (let i = 0; i < 20; i++) assert.equal((await get()).statusCode, 200);
  // The key's first use queued its "last used" write a second later: it is done before any tracing.
  await eventually(async () => (await app.storage.keys.list()).every((key) => key.lastUsedAt !== null));
  const ran = {
    'GET /v1/pets/{petId}': await traced(get, 'GET', '/v1/pets/7', 200),
    'POST /v1/pets': await traced(create, 'POST', '/v1/pets', 201),
  };
  await app.close();
  console.log(JSON.stringify(ran));
}
