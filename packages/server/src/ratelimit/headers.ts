export interface Policy {
  name: string;
  limit: number;
  windowSeconds: number;
}

/** A subject's policies and their `RateLimit-Policy` field, built once per pair of limits. */
export interface PolicySet {
  policies: Policy[];
  header: string;
}

export function policySet(policies: Policy[]): PolicySet {
  return {
    policies,
    header: policies.map((p) => `"${p.name}";q=${p.limit};w=${p.windowSeconds}`).join(', '),
  };
}

/** The window a response reports: the one closer to exhaustion, the one that refused, or the ban. */
export interface ReportedWindow {
  name: string;
  limit: number;
  remaining: number;
  resetAt: number;
}

/** Whole seconds from `now` until `at`, rounded up so a client waiting that long is never early. */
export function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1_000));
}

/** The window closer to exhaustion: fewer remaining, or on a tie the one resetting sooner. */
export function closestToExhaustion(windows: readonly ReportedWindow[]): ReportedWindow {
  return windows.reduce((best, w) =>
    w.remaining < best.remaining || (w.remaining === best.remaining && w.resetAt < best.resetAt) ? w : best,
  );
}

/**
 * X-RateLimit-* (Reset in Unix seconds) and the structured fields of
 * draft-ietf-httpapi-ratelimit-headers: every policy in RateLimit-Policy, the reported one in
 * RateLimit. A refusal also carries Retry-After.
 */
export function rateLimitHeaders(
  policies: PolicySet,
  reported: ReportedWindow,
  now: number,
  retryAfterSeconds?: number,
): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(reported.limit),
    'X-RateLimit-Remaining': String(reported.remaining),
    'X-RateLimit-Reset': String(Math.ceil(reported.resetAt / 1_000)),
    'RateLimit-Policy': policies.header,
    RateLimit: `"${reported.name}";r=${reported.remaining};t=${secondsUntil(reported.resetAt, now)}`,
  };
  if (retryAfterSeconds !== undefined) headers['Retry-After'] = String(retryAfterSeconds);
  return headers;
}
