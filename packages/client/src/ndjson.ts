import { PetstoreError } from './errors.ts';

/**
 * The lines of an `application/x-ndjson` body as they arrive, each parsed by `parse`: one chunk is held
 * at a time, so an export of any size reads in constant memory. A body that breaks off (the connection
 * is lost, or the last line has no end) throws a PetstoreError saying how many lines were read.
 */
export async function* ndjsonLines(
  body: ReadableStream<Uint8Array>,
  parse: (line: string) => unknown,
  what: string,
): AsyncGenerator<unknown, void, undefined> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const reader = body.getReader();
  let pending = '';
  let lines = 0;
  const broken = (message: string, cause?: unknown) =>
    new PetstoreError(
      { code: cause === undefined ? 'unexpected_response' : 'network_error', status: 0, message },
      cause === undefined ? undefined : { cause },
    );
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (cause) {
        const reason = cause instanceof Error ? cause.message : String(cause);
        throw broken(`${what} broke off after ${lines} lines: ${reason}`, cause);
      }
      if (chunk.done) break;
      pending += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = pending.indexOf('\n')) !== -1) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        if (line.trim() === '') continue;
        lines++;
        yield parse(line);
      }
    }
    pending += decoder.decode();
    if (pending.trim() !== '') throw broken(`${what} ended in the middle of line ${lines + 1}`);
  } finally {
    reader.releaseLock();
    // A consumer that stops early closes the connection rather than reading the rest.
    await body.cancel().catch(() => {});
  }
}
