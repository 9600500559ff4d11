/** One `<target>; params` of a Link header (RFC 8288), and the rel parameter among its params. */
const LINK_VALUE = /<([^>]*)>([^,<]*)/g;
const REL_PARAM = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i;

/** The targets of a Link header by relation, resolved against `base`. */
function linkTargets(header: string | null, base: string): Map<string, URL> {
  const targets = new Map<string, URL>();
  for (const [, target = '', params] of (header ?? '').matchAll(LINK_VALUE)) {
    const rel = REL_PARAM.exec(params ?? '');
    if (!URL.canParse(target, base)) continue;
    for (const relation of (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/))
      if (relation !== '' && !targets.has(relation)) targets.set(relation, new URL(target, base));
  }
  return targets;
}

const day = (at: number): string => new Date(at).toISOString().slice(0, 10);

/**
 * What a deprecated operation's answer says in its headers, as one line for standard error: since when
 * it is deprecated (`Deprecation: @<unix seconds>`, RFC 9745), when it stops working (`Sunset`, an
 * HTTP-date, RFC 8594), its replacement (`Link` rel="successor-version") and where that is explained
 * (rel="deprecation"); undefined when the answer carries no `Deprecation`.
 */
export function deprecationNotice(
  headers: Headers,
  base: string,
  operation: string,
  replacement: string,
): string | undefined {
  const deprecation = headers.get('deprecation')?.trim();
  if (!deprecation) return undefined;
  const since = /^@(-?\d{1,12})$/.exec(deprecation)?.[1];
  const sunset = Date.parse(headers.get('sunset') ?? '');
  const links = linkTargets(headers.get('link'), base);
  const successor = links.get('successor-version');
  const documentation = links.get('deprecation');
  return [
    `petstore: ${operation} is deprecated`,
    since === undefined ? '' : ` since ${day(Number(since) * 1_000)} (Deprecation)`,
    Number.isNaN(sunset) ? '' : ` and stops working on ${day(sunset)} (Sunset), answering 410 gone from then`,
    successor ? `; use GET ${successor.pathname} instead (${replacement})` : '',
    documentation ? `; see ${documentation.href}` : '',
  ].join('');
}
