import type { DomainService } from './domain-service.ts';

/** How often an instance looks for domains due a check (each is claimed, so instances share the work). */
export const CHECK_POLL_MS = 15_000;

export interface CheckLog {
  warn(obj: object, msg: string): void;
}

/**
 * The background re-checks: waiting domains with backoff for 48 hours, verified ones every few hours (a
 * domain whose records are gone stops being served). A failed round is logged and the next one tried.
 * First it records this service's DNS servers for `petstore domains verify` (`ready` settles once
 * tried; when the database is not reachable yet, the next rounds try again).
 */
export function startDomainChecks(
  domains: DomainService,
  log: CheckLog,
  intervalMs = CHECK_POLL_MS,
): { ready: Promise<void>; stop(): void } {
  let running = false;
  let resolversRecorded = false;
  const recordResolvers = async () => {
    if (resolversRecorded) return;
    await domains.recordResolvers();
    resolversRecorded = true;
  };
  const round = async () => {
    if (running) return;
    running = true;
    try {
      await recordResolvers();
      await domains.checkDue();
    } catch (error) {
      log.warn({ err: error }, 'custom domain checks failed; trying again later');
    } finally {
      running = false;
    }
  };
  const ready = recordResolvers().catch((error: unknown) =>
    log.warn({ err: error }, 'could not record the DNS servers for custom domains yet; trying again later'),
  );
  const timer = setInterval(round, intervalMs).unref();
  return { ready, stop: () => clearInterval(timer) };
}
