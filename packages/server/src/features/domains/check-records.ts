/** A DNS record the customer creates at their provider, as the dashboard and the CLI show it. */
export interface ExpectedRecord {
  type: 'CNAME' | 'ALIAS' | 'TXT';
  name: string;
  value: string;
}

export type VerificationState = 'pending' | 'verified' | 'failed';

/** What one check found: a state DNS answered for, or `unanswered` (timeout, refusal, SERVFAIL). */
export type CheckState = VerificationState | 'unanswered';

/** An expected record, whether DNS shows it right now, and what DNS shows at its name. */
export interface RecordCheck extends ExpectedRecord {
  ok: boolean;
  /** What the name resolves to now: CNAME chain, addresses or TXT values. */
  seen: string[];
}
