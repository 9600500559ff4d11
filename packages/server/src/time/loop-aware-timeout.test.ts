import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { createLoopAwareTimeout, TimeoutError } from './loop-aware-timeout.ts';

function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** An echo server and a connected socket; `ask()` writes a byte and resolves with the echo. */
async function echo(t: test.TestContext) {
  const server = createServer((socket) => socket.pipe(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const socket: Socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  t.after(() => {
    socket.destroy();
    server.close();
  });
  return {
    ask: () => {
      const answer = once(socket, 'data');
      socket.write('x');
      return answer;
    },
  };
}

test('answer waiting unread after a 300 ms blocked turn → resolved, not timed out (50 ms timeout)', async (t) => {
  const { ask } = await echo(t);
  const timeout = createLoopAwareTimeout(50);
  for (let i = 0; i < 3; i++) {
    const answered = timeout.within(ask(), 'echo');
    setImmediate(() => block(300));
    assert.equal(String(await answered), 'x');
  }
});

test('promise never settling → TimeoutError after the timeout of free loop time, within a tick or two of it', async () => {
  const timeout = createLoopAwareTimeout(60); // counted in ticks of 12 ms
  // A plain 12 ms interval beside it: a busy machine delays both alike, so the bound is in its ticks,
  // not in wall time (the timeout is due after 5 ticks, 6 when it started mid-tick, then one pass).
  let controlTicks = 0;
  const control = setInterval(() => controlTicks++, 12);
  const started = performance.now();
  await assert.rejects(timeout.within(new Promise(() => {}), 'nothing'), (err) => {
    assert.ok(err instanceof TimeoutError);
    assert.equal(err.message, 'nothing within 60 ms');
    return true;
  });
  clearInterval(control);
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 55, `failed after ${elapsed} ms, before 60 ms of loop time`);
  assert.ok(controlTicks <= 8, `failed after ${controlTicks} ticks of 12 ms (${elapsed} ms)`);
});

test('a rejection before the timeout → passed through unchanged', async () => {
  const timeout = createLoopAwareTimeout(1_000);
  await assert.rejects(timeout.within(Promise.reject(new Error('down')), 'x'), /^Error: down$/);
});

test('timeout not above 0 → refused at creation', () => {
  assert.throws(() => createLoopAwareTimeout(0), /timeout must be > 0/);
});
