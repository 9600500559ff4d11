import { Worker } from 'node:worker_threads';
import { createHashingGate, type GateTicket, type HashingLimits } from './hashing-gate.ts';
import {
  boundedInputs,
  type Strength,
  STRENGTH_PREFIX_CHARACTERS,
  strengthPrefix,
} from './password-strength.ts';
import { type StrengthRequest, STRENGTH_WORKER_SOURCE, type StrengthWorkerData } from './strength-worker.ts';

/**
 * The strength check off the event loop: one worker thread (strength-worker.ts), started on the first
 * check, never at import, and kept for the next. Checks are admitted by a hashing gate of their own
 * (one at a time, a few waiting, lanes per client taking turns), so a flood of new passwords waits in
 * line or is told to retry, and never holds the thread that answers everyone else's requests. The
 * worker only keeps the process alive while a check is pending (a command that checks one password
 * still exits).
 */
export type StrengthAnswer = { ran: true; strength: Strength } | { ran: false };

export interface StrengthPool {
  /** The strength of `password`'s prefix; `{ ran: false }` when the queue is full. */
  check(password: string, userInputs: string[], ticket?: GateTicket): Promise<StrengthAnswer>;
  /** Ends the worker (a new one starts with the next check). */
  close(): Promise<void>;
}

/**
 * One check at a time, four waiting, one per client: a check takes 50–250 ms on an idle core, so a
 * waiting one is answered within about a second; under a flood the rest are told to retry at once
 * rather than held for longer than a connection may sit silent.
 */
export const STRENGTH_LIMITS: HashingLimits = { concurrent: 1, waiting: 4, perLane: 1 };

/**
 * The worker thread's nice value: the lowest priority, so that on a busy core the event loop keeps its
 * time and the checks wait (Linux; elsewhere the thread keeps the process's priority).
 */
export const STRENGTH_NICE = 19;

/** A check of a command or a test, without a client to take turns with. */
const LOCAL: GateTicket = { lane: 'local', priority: false };

type Reply = { id: number; strength: Strength } | { id: number; error: string };

/**
 * `nice` is the worker thread's nice value: production's lowest priority by default; a test whose
 * subject is not the worker's priority passes the process's own (`os.getPriority()`), so that its
 * checks are not starved by whatever else keeps the machine busy.
 */
export function createStrengthPool(
  limits: HashingLimits = STRENGTH_LIMITS,
  nice: number = STRENGTH_NICE,
): StrengthPool {
  const gate = createHashingGate(limits);
  const pending = new Map<number, { resolve(strength: Strength): void; reject(error: Error): void }>();
  let worker: Worker | undefined;
  let nextId = 0;

  const failAll = (error: Error) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };

  const started = (): Worker => {
    if (worker) return worker;
    const workerData: StrengthWorkerData = {
      modules: [
        import.meta.resolve('@zxcvbn-ts/core'),
        import.meta.resolve('@zxcvbn-ts/language-common'),
        import.meta.resolve('@zxcvbn-ts/language-en'),
      ],
      maxLength: STRENGTH_PREFIX_CHARACTERS * 2,
      nice,
    };
    const thread = new Worker(STRENGTH_WORKER_SOURCE, { eval: true, workerData });
    thread.on('message', (reply: Reply) => {
      const waiter = pending.get(reply.id);
      pending.delete(reply.id);
      if (pending.size === 0) thread.unref();
      if ('error' in reply) waiter?.reject(new Error(`password strength check failed: ${reply.error}`));
      else waiter?.resolve(reply.strength);
    });
    thread.on('error', (error) => failAll(error));
    thread.on('exit', (code) => {
      if (worker === thread) worker = undefined;
      failAll(new Error(`the password strength worker stopped (exit code ${code})`));
    });
    worker = thread;
    return thread;
  };

  const ask = (password: string, userInputs: string[]) =>
    new Promise<Strength>((resolve, reject) => {
      const thread = started();
      const id = nextId++;
      pending.set(id, { resolve, reject });
      thread.ref();
      const request: StrengthRequest = {
        id,
        password: strengthPrefix(password),
        userInputs: boundedInputs(userInputs),
      };
      thread.postMessage(request);
    });

  return {
    async check(password, userInputs, ticket = LOCAL) {
      const outcome = await gate.run(ticket, () => ask(password, userInputs));
      return outcome.ran ? { ran: true, strength: outcome.value } : { ran: false };
    },
    async close() {
      const thread = worker;
      worker = undefined;
      await thread?.terminate();
    },
  };
}
