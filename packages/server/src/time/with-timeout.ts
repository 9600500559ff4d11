/** Rejects with `Error(message)` when `promise` has not settled within `ms`; the timer never outlives it. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what = 'no answer'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
