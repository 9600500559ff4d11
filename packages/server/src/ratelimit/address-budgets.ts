import { ANONYMOUS_LIMITS, type Limits } from './plans.ts';

/**
 * What a request without a valid API key is counted against: a budget per client address, chosen by
 * the matched route (its `RouteConfig.addressBudget`), each budget in its own bucket so that traffic
 * of one kind never uses up another's.
 * - `api`: `/v1` operations without a valid key, and paths no route matches. The Free plan's rates,
 *   which throttle key guessing.
 * - `public`: the docs page, its assets and the OpenAPI document. A page view is about 20 requests.
 * - `monitoring`: `/healthz`, `/readyz`, `/metrics`. Far above any probe or scrape rate (a load balancer
 *   node probing 100 instances every second stays under it), so only a flood is refused; the day
 *   window is the minute's times 1,440 and never binds first.
 * - `tls`: the TLS proxy's question (`/internal/tls/ask`). Its own bucket: visitors sending made-up
 *   names to the proxy can use it up, never the proxy's health probes. It is only asked for names
 *   without a certificate yet, so the limit is far above what a real proxy needs.
 */
export type AddressBudget = 'api' | 'public' | 'monitoring' | 'tls';

export interface AddressLimits extends Limits {
  /** Prefix of the bucket: `<prefix>:<client address>`. */
  bucket: string;
  /** See LimitSubject.inDoubt: probes and the TLS proxy are answered by the fallback, never refused. */
  inDoubt?: 'fallback';
}

export const ADDRESS_BUDGETS: Record<AddressBudget, AddressLimits> = {
  api: { bucket: 'ip', ...ANONYMOUS_LIMITS },
  public: { bucket: 'public', perMinute: 1_200, perDay: 100_000 },
  monitoring: { bucket: 'monitoring', perMinute: 6_000, perDay: 6_000 * 1_440, inDoubt: 'fallback' },
  tls: { bucket: 'tls', perMinute: 6_000, perDay: 6_000 * 1_440, inDoubt: 'fallback' },
};
