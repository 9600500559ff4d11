import assert from 'node:assert/strict';
import { inject } from 'light-my-request';
import fc from 'fast-check';
import type { TestApp } from '../harness.ts';
import { assertMatchesContract } from '../openapi-validator.ts';
import type { Operation } from './operations.ts';
import { describeRequest, type GeneratedRequest, type Pools, requestFor } from './requests.ts';

/**
 * How many requests each operation gets: a few dozen in `npm test`, as many as asked with
 * PETSTORE_FUZZ_RUNS (and PETSTORE_FUZZ_SEED to replay a failure's seed).
 */
export const FUZZ = {
  runs: Number(process.env.PETSTORE_FUZZ_RUNS ?? 40),
  /** PETSTORE_FUZZ_STATS=1: each operation's answers by status and validity, to see what a run reached. */
  stats: process.env.PETSTORE_FUZZ_STATS === '1',
  seed:
    process.env.PETSTORE_FUZZ_SEED === undefined
      ? Date.now() ^ (Math.random() * 2 ** 31)
      : Number(process.env.PETSTORE_FUZZ_SEED),
};

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A 400 the contract cannot express, for a request it accepts: a rule of the service (an instant in the
 * past, limits above the plan's, a name that is no domain, an address that imitates another), a cursor
 * the service did not issue, or a page asked of an export. By operation, the `param` it names.
 */
export const RULES: Record<string, { code: string; params: (string | undefined)[] }[]> = {
  listPets: [{ code: 'invalid_cursor', params: ['cursor'] }],
  listKeys: [{ code: 'invalid_cursor', params: ['cursor'] }],
  listInvitations: [{ code: 'invalid_cursor', params: ['cursor'] }],
  listDomains: [{ code: 'invalid_cursor', params: ['cursor'] }],
  listAuditEvents: [{ code: 'invalid_cursor', params: ['cursor'] }],
  listRequests: [
    { code: 'invalid_cursor', params: ['cursor'] },
    { code: 'invalid_parameter', params: ['limit', 'cursor'] },
  ],
  createKey: [{ code: 'invalid_body', params: ['expiresAt', 'perMinute', 'perDay', 'label'] }],
  updateKey: [{ code: 'invalid_body', params: ['perMinute', 'perDay', 'label'] }],
  createInvitation: [{ code: 'invalid_body', params: ['email'] }],
  createDomain: [{ code: 'invalid_body', params: [undefined, 'hostname'] }],
};

/** Sends a generated request through the app in-process (as the server's requests go: the lane first). */
export async function send(
  app: TestApp,
  request: GeneratedRequest,
  credential: string | undefined,
): Promise<Answer> {
  const headers = { ...request.headers };
  if (credential !== undefined) headers.authorization = `Bearer ${credential}`;
  await new Promise((resolve) => setImmediate(resolve));
  const response = await inject(app.app.dispatch, {
    method: request.method as 'GET',
    url: request.url,
    headers,
    ...(request.body === undefined ? {} : { payload: request.body }),
  });
  return {
    status: response.statusCode,
    headers: response.headers as Record<string, string>,
    body: response.body,
  };
}

/**
 * What a generated request's answer must be: never a 5xx the operation does not plan; a status, headers
 * and body the contract declares for the operation; a 2xx only for a request the contract accepts, a
 * refusal of one it does not (400, 404, 413 or 415, as Schemathesis expects); for one it accepts, no
 * 400 but the service's rules (RULES), and never 413 or 415.
 */
export function checkAnswer(operation: Operation, request: GeneratedRequest, answer: Answer): void {
  const context = `${describeRequest(request)}\n→ ${answer.status} ${answer.body.slice(0, 400)}`;
  const planned = Object.hasOwn(operation.node.responses as object, String(answer.status));
  assert.ok(answer.status < 500 || planned, `a server error: ${context}`);
  assertMatchesContract({ method: request.method, path: request.url, ...answer });
  // An operation the service plans not to implement (listStoreOrders) answers 501 whatever it is sent.
  if (answer.status === 501 && planned) return;
  if (request.problems.length > 0) {
    assert.ok(
      [400, 404, 413, 415].includes(answer.status),
      `the contract refuses this request (${request.problems.join('; ')}), the service did not: ${context}`,
    );
    return;
  }
  assert.ok(![413, 415].includes(answer.status), `a request the contract accepts: ${context}`);
  if (answer.status === 400) {
    const error = JSON.parse(answer.body) as { code: string; param?: string };
    const allowed = (RULES[operation.operationId] ?? []).some(
      (rule) => rule.code === error.code && rule.params.includes(error.param),
    );
    assert.ok(allowed, `a request the contract accepts was refused: ${context}`);
  }
}

export interface FuzzTarget {
  app: TestApp;
  /** The credential the operation takes (an API key, an access token), or none for a public one. */
  credential(operation: Operation): string | undefined;
  pools: Pools;
  /** What the service has written (rows of every table a request could change). */
  fingerprint(): Promise<string>;
  /** Takes the ids a success created into the pools. */
  harvest(operation: Operation, answer: Answer): void;
  /** Before each request: the test's clock moves on, so that no per-minute limit is the answer. */
  tick?(): void;
}

/** Generated requests for one operation against the target, every answer checked (checkAnswer). */
export async function fuzzOperation(target: FuzzTarget, operation: Operation): Promise<void> {
  const seen = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(requestFor(operation, target.pools), async (request) => {
      target.tick?.();
      const before = await target.fingerprint();
      const answer = await send(target.app, request, target.credential(operation));
      const kind = `${answer.status}${request.problems.length === 0 ? '' : '!'}`;
      seen.set(kind, (seen.get(kind) ?? 0) + 1);
      checkAnswer(operation, request, answer);
      if (answer.status >= 400) {
        assert.equal(
          await target.fingerprint(),
          before,
          `a refused request wrote: ${describeRequest(request)} → ${answer.status}`,
        );
      } else target.harvest(operation, answer);
    }),
    { numRuns: FUZZ.runs, seed: FUZZ.seed, endOnFailure: true },
  );
  if (FUZZ.stats)
    console.log(
      operation.operationId,
      [...seen]
        .sort()
        .map(([kind, count]) => `${kind}×${count}`)
        .join(' '),
    );
}
