import type { DomainService } from './domain-service.ts';

/** How often an instance looks for domains due a check (each is claimed, so instances share the work). */
export const CHECK_POLL_MS = 15_000;

export interface CheckLog {
  warn(obj: object, msg: string): void;
}

/**
 * The background re-checks: waiting domains with backoff for 48 hours, verified ones every few hours (a
 * domain whose records are gone stops being served). A failed round is logged and the next one tried.
 */
export function startDomainChecks(
  domains: DomainService,
  log: CheckLog,
  intervalMs = CHECK_POLL_MS,
): { stop(): void } {
  let running = false;
  const round = async () => {
    if (running) return;
    running = true;
    try {
      await domains.checkDue();
    } catch (error) {
      log.warn({ err: error }, 'custom domain checks failed; trying again later');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(round, intervalMs).unref();
  return { stop: () => clearInterval(timer) };
}
