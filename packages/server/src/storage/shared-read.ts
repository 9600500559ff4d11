import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * One read shared by concurrent callers, each of which still gets a result read after its call: a
 * caller joins the read that has not been sent yet, which goes out once the read in flight (if any)
 * has settled, and at the earliest in the next event-loop turn. Under load one query answers
 * everyone who asked meanwhile; a caller never gets an answer older than its call.
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  let next: Promise<T> | undefined;

  const schedule = async (): Promise<T> => {
    const previous = inFlight;
    if (previous) await previous.catch(() => undefined);
    else await nextTurn();
    next = undefined;
    const current = read();
    inFlight = current;
    try {
      return await current;
    } finally {
      if (inFlight === current) inFlight = undefined;
    }
  };

  return () => {
    next ??= schedule();
    return next;
  };
}
