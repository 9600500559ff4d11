import type { DomainsService } from './service.ts';

/** How often an instance looks for domains due a check (each is claimed, so instances share the work). */
export const CHECK_POLL_MS = 15_000;

export interface CheckLog {
  warn(obj: object, msg: string): void;
}

/**
 * The background re-checks: waiting domains with backoff for 48 hours, verified ones every few hours (a
 * domain whose records are gone stops being served). A failed round is logged and the next one tried.
 * First it records this service's settings (DNS servers, site domain, API host) for `petstore domains`
 * (`ready` settles once tried; when the database is not reachable yet, the next rounds try again).
 */
export function startDomainChecks(
  domains: DomainsService,
  log: CheckLog,
  intervalMs = CHECK_POLL_MS,
): { ready: Promise<void>; stop(): void } {
  let running = false;
  let settingsRecorded = false;
  const recordSettings = async () => {
    if (settingsRecorded) return;
    await domains.recordSettings();
    settingsRecorded = true;
  };
  const round = async () => {
    if (running) return;
    running = true;
    try {
      await recordSettings();
      await domains.checkDue();
    } catch (error) {
      log.warn({ err: error }, 'custom domain checks failed; trying again later');
    } finally {
      running = false;
    }
  };
  const ready = recordSettings().catch((error: unknown) =>
    log.warn({ err: error }, 'could not record the settings for custom domains yet; trying again later'),
  );
  const timer = setInterval(round, intervalMs).unref();
  return { ready, stop: () => clearInterval(timer) };
}
