import { ApiError, type ErrorCode } from '../../errors.ts';

/** Why an operation was refused: a code of the one error catalogue and a message for people. */
export interface Problem {
  code: ErrorCode;
  message: string;
  /** The input field or parameter at fault, when there is one. */
  param?: string;
  /** With rate_limited: when to try again (the Retry-After header). */
  retryAfterMs?: number;
}

/** What a service operation returns: its value, or the problem that stopped it (nothing was changed). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; problem: Problem };

export const done = <T>(value: T): Outcome<T> => ({ ok: true, value });

export const refused = (
  code: ErrorCode,
  message: string,
  param?: string,
): { ok: false; problem: Problem } => ({
  ok: false,
  problem: param === undefined ? { code, message } : { code, message, param },
});

/** At the HTTP edge: the value, or the problem thrown as the Error body. */
export function valueOrThrow<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  const { code, message, param, retryAfterMs } = outcome.problem;
  throw new ApiError(code, message, {
    ...(param !== undefined && { param }),
    ...(retryAfterMs !== undefined && { headers: { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) } }),
  });
}

/** Thrown inside a transaction to undo it and return the problem instead (see inTransaction). */
export class Refusal extends Error {
  readonly problem: Problem;
  constructor(problem: Problem) {
    super(problem.message);
    this.problem = problem;
  }
}
