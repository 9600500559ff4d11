// What a response's headers mean, in plain words: the rate limit left, a 429's wait, the next page, a
// deprecation. Pure functions of the headers, so they can be tested on their own.

/** The targets of a `Link` header by relation: `{ next: '/v1/pets?cursor=…' }`. */
export function parseLink(header) {
  const links = {};
  for (const match of (header ?? '').matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel="?([^";]+)"?/i.exec(match[2])?.[1];
    for (const name of rel?.split(/\s+/) ?? []) links[name.toLowerCase()] ??= match[1];
  }
  return links;
}

/** `"minute";q=60;w=60, "day";q=1000;w=86400` → [{ name: 'minute', quota: 60, seconds: 60 }, …]. */
function parsePolicy(header) {
  return [...(header ?? '').matchAll(/"([a-z-]+)";q=(\d+);w=(\d+)/g)].map(([, name, quota, seconds]) => ({
    name,
    quota: Number(quota),
    seconds: Number(seconds),
  }));
}

const count = (n) => Number(n).toLocaleString('en-US');
const plural = (n, word) => `${count(n)} ${word}${Number(n) === 1 ? '' : 's'}`;
const clock = (seconds) => new Date(seconds * 1000).toISOString().slice(11, 19);

function duration(seconds) {
  if (seconds < 120) return plural(seconds, 'second');
  if (seconds < 7_200) return plural(Math.round(seconds / 60), 'minute');
  return plural(Math.round(seconds / 3_600), 'hour');
}

/**
 * Sentences about the rate limit of a response (`get(name)` reads a header): the plan's quotas (per
 * project, shared by its keys) and the key's own lower ones (`key-minute`, `key-day`), what is left in
 * the window closer to exhaustion and when it resets, and on a 429 how long to wait.
 */
export function rateLimitWords(get, { status, code, now = Date.now() } = {}) {
  const sentences = [];
  const policies = parsePolicy(get('ratelimit-policy'));
  const quotas = (list) =>
    list.map((policy) => `${count(policy.quota)} a ${policy.name.replace('key-', '')}`);
  const shared = policies.filter((policy) => !policy.name.startsWith('key-'));
  const own = policies.filter((policy) => policy.name.startsWith('key-'));
  if (shared.length)
    sentences.push(`The limit is per project, shared by its keys: ${quotas(shared).join(' and ')}.`);
  if (own.length) sentences.push(`This key's own limit: ${quotas(own).join(' and ')}.`);
  const refusing = /^"([a-z-]+)"/.exec(get('ratelimit') ?? '')?.[1] ?? '';
  const limit = get('x-ratelimit-limit');
  const remaining = get('x-ratelimit-remaining');
  const reset = Number(get('x-ratelimit-reset'));
  if (limit !== null && remaining !== null) {
    const [, window, left] = /^"([a-z-]+)"(?:.*;t=(\d+))?/.exec(get('ratelimit') ?? '') ?? [];
    const where = !window
      ? 'the current window'
      : window.startsWith('key-')
        ? `this key's own ${window.slice(4)} window`
        : `this ${window}'s window`;
    // The server's own count of seconds left (RateLimit's t) when it sends one: this browser's clock,
    // a second off, made a 60-second window reset "in 61 seconds". Else from the reset time, at most
    // the window's length.
    const length = policies.find((policy) => policy.name === window)?.seconds ?? Infinity;
    const seconds =
      left !== undefined ? Number(left) : Math.min(length, Math.max(0, Math.ceil(reset - now / 1000)));
    const resets =
      Number.isFinite(reset) && reset > 0
        ? ` It resets at ${clock(reset)} UTC, in ${duration(seconds)}.`
        : '';
    sentences.push(`${plural(remaining, 'request')} of ${count(limit)} left in ${where}.${resets}`);
  }
  const retryAfter = get('retry-after');
  if (status === 429 && retryAfter !== null) {
    const wait = duration(Number(retryAfter));
    // Only refusals by the key's own limit count toward a ban: the project's may be other keys' doing.
    sentences.push(
      code === 'temporarily_banned'
        ? `This key is banned for sending while it was over its own limit: wait ${wait} (Retry-After) before sending again.`
        : refusing.startsWith('key-')
          ? `Refused for being over this key's own limit: wait ${wait} (Retry-After), then send again. Sending while refused counts toward a temporary ban.`
          : `Refused: the project's limit, shared by its keys, is used up: wait ${wait} (Retry-After), then send again.`,
    );
  }
  return sentences;
}

/** A sentence about a deprecated operation's response, or nothing. */
export function deprecationWords(get) {
  const sunset = get('sunset');
  if (!sunset) return undefined;
  const successor = parseLink(get('link'))['successor-version'];
  return `This operation is deprecated and stops working on ${sunset} (Sunset)${successor ? `; its successor is ${successor}` : ''}.`;
}
