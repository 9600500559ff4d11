import type { DeferredDomains } from './deferred.ts';

/** How often the maintenance owner looks for domains due a check (each is claimed, a bounded round). */
export const CHECK_POLL_MS = 15_000;

export interface CheckLog {
  warn(obj: object, msg: string): void;
}

/**
 * The background re-checks, as the maintenance owner runs them (maintenance/jobs.ts): waiting domains
 * with backoff for 48 hours, verified ones every few hours (a domain whose records are gone stops being
 * served). `ready` settles once this service's settings (DNS servers, site domain, API host) have been
 * recorded for `petstore domains`, at start-up, a single write; when the database is not reachable yet, each round tries again
 * before its checks. The service itself is imported by the first round.
 */
export function domainChecks(
  domains: DeferredDomains,
  log: CheckLog,
): { ready: Promise<void>; round(): Promise<number> } {
  let settingsRecorded = false;
  const recordSettings = async () => {
    if (settingsRecorded) return;
    await domains.recordSettings();
    settingsRecorded = true;
  };
  const ready = recordSettings().catch((error: unknown) =>
    log.warn({ err: error }, 'could not record the settings for custom domains yet; trying again later'),
  );
  return {
    ready,
    async round() {
      await recordSettings();
      return (await domains.service()).checkDue();
    },
  };
}
