import type { CheckResult, CustomDomain, DomainRepository, UnansweredCheck } from './domain-repository.ts';
import {
  at,
  MAX_RECHECK_MS,
  MIN_RECHECK_MS,
  retryAfterMs,
  UNSERVE_AFTER_MS,
  VERIFIED_RECHECK_MS,
  VERIFY_WINDOW_MS,
  WRONG_RECHECK_MS,
} from './rules.ts';
import type { Verification } from './verify.ts';

/** What a check stores: what an answer decided, or only that DNS gave none (the state is kept). */
export type Settled = { answered: CheckResult } | { unanswered: UnansweredCheck };

/**
 * What a check that saw `found` at `now` makes of the domain. Only a DNS answer changes the state; a
 * verified domain is unserved only when its records were seen wrong for UNSERVE_AFTER_MS.
 */
export function settleCheck(domain: CustomDomain, found: Verification, now: number): Settled {
  if (found.state === 'unanswered') {
    const failures = domain.checkFailures + 1;
    return {
      unanswered: {
        checkError: found.reason!,
        checkFailures: failures,
        nextCheckAt: now + retryAfterMs(failures),
      },
    };
  }
  let state: CustomDomain['state'] = found.state;
  let reason = found.reason;
  let wrongSince: number | null = null;
  let nextCheckAt: number;
  if (state === 'verified') {
    nextCheckAt = now + VERIFIED_RECHECK_MS;
  } else if (domain.state === 'verified') {
    wrongSince = domain.wrongSince ?? now;
    if (now - wrongSince >= UNSERVE_AFTER_MS) {
      // Wrong in every answered check for an hour: not served any more (no dangling record), but watched.
      state = 'failed';
      reason = `the records no longer point here (seen wrong since ${at(wrongSince)} UTC), so the domain is not served: ${reason}`;
      nextCheckAt = now + MAX_RECHECK_MS;
    } else {
      state = 'verified';
      reason = `the records were seen wrong at ${at(wrongSince)} UTC: ${reason}. Still served; if they are still wrong at ${at(wrongSince + UNSERVE_AFTER_MS)} UTC the domain stops being served`;
      nextCheckAt = now + Math.min(WRONG_RECHECK_MS, wrongSince + UNSERVE_AFTER_MS - now);
    }
  } else if (domain.verifiedAt !== null) {
    state = 'failed';
    reason = `the records no longer point here, so the domain is not served: ${reason}`;
    nextCheckAt = now + MAX_RECHECK_MS;
  } else if (now - domain.createdAt >= VERIFY_WINDOW_MS) {
    state = 'failed';
    reason = `not verified within 48 hours of adding it (${reason}); fix the records, then use "Check now"`;
    nextCheckAt = Number.MAX_SAFE_INTEGER;
  } else {
    nextCheckAt =
      now + Math.min(MAX_RECHECK_MS, Math.max(MIN_RECHECK_MS, Math.floor((now - domain.createdAt) / 8)));
  }
  return {
    answered: {
      state,
      reason,
      checks: { records: found.records, warnings: found.warnings },
      checkedAt: now,
      nextCheckAt,
      verifiedAt: state === 'verified' ? now : null,
      wrongSince,
      endedReason: `another project proved control of ${domain.hostname} at ${at(now)} UTC (its TXT ownership record and CNAME were seen), so this project no longer serves it. To take it back, create the records below, then use "Check now"`,
    },
  };
}

/** Stores a settled check of the project's claim; false when the domain is gone (removed meanwhile). */
export function storeCheck(
  repo: Pick<DomainRepository, 'recordCheck' | 'recordUnanswered'>,
  domain: CustomDomain,
  settled: Settled,
): Promise<boolean> {
  return 'unanswered' in settled
    ? repo.recordUnanswered(domain.hostname, settled.unanswered, domain.projectId)
    : repo.recordCheck(domain.hostname, settled.answered, domain.projectId, domain.state);
}

/**
 * How the audit trail records a check, whoever made it: verified; checked with the state it was left
 * in (a verified domain whose records were seen wrong says so); or, when DNS gave no answer, that
 * nothing could be checked and the state was kept.
 */
export function checkRecord(
  domain: Pick<CustomDomain, 'hostname' | 'state'>,
  settled: Settled,
): { action: 'domain_verified' | 'domain_checked'; target: string } {
  const { hostname } = domain;
  if ('unanswered' in settled) {
    return {
      action: 'domain_checked',
      target: `${hostname}: could not check (${settled.unanswered.checkError}), still ${domain.state}`,
    };
  }
  const { state, wrongSince } = settled.answered;
  if (state === 'verified' && wrongSince !== null)
    return { action: 'domain_checked', target: `${hostname}: verified, records seen wrong` };
  return {
    action: state === 'verified' ? 'domain_verified' : 'domain_checked',
    target: `${hostname}: ${state}`,
  };
}
