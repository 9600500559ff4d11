import type { SqlExecutor } from '../../storage/sql-executor.ts';
import type { DnsResolver } from './dns.ts';

/**
 * What the running service judges custom domains by, as it recorded it in the database at start-up
 * (the last instance started wins): the command line applies these, never its own environment's.
 */
export interface ServiceSettings {
  /** The DNS servers it checks with (`ip` or `ip:port`). */
  servers: string[];
  siteDomain: string;
  apiHost: string | null;
  caIdentity: string;
  enterpriseDomains: number | null;
}

/** The settings a service with these dependencies records (the domains service's own). */
export function settingsOf(deps: {
  resolver: Pick<DnsResolver, 'getServers'>;
  siteDomain: string;
  apiHost?: string;
  caIdentity: string;
  enterpriseDomains?: number;
}): ServiceSettings {
  return {
    servers: [...deps.resolver.getServers()],
    siteDomain: deps.siteDomain,
    apiHost: deps.apiHost ?? null,
    caIdentity: deps.caIdentity,
    enterpriseDomains: deps.enterpriseDomains ?? null,
  };
}

/** The settings row (migration 031's `domain_resolvers`, with 105's `settings`), both dialects. */
export function serviceSettings(sql: SqlExecutor) {
  return {
    async record(settings: ServiceSettings, at: number): Promise<void> {
      const { servers, ...rest } = settings;
      await sql.run(
        `INSERT INTO domain_resolvers (id, servers, recorded_at, settings) VALUES (1, $1, $2, $3)
         ON CONFLICT (id) DO UPDATE
           SET servers = excluded.servers, recorded_at = excluded.recorded_at, settings = excluded.settings`,
        [JSON.stringify(servers), at, JSON.stringify(rest)],
      );
    },
    /** Undefined when no instance of this version has started on the database yet. */
    async read(): Promise<(ServiceSettings & { recordedAt: number }) | undefined> {
      const [row] = await sql.all('SELECT servers, recorded_at, settings FROM domain_resolvers WHERE id = 1');
      if (!row || row.settings === null || row.settings === undefined) return undefined;
      const rest = JSON.parse(row.settings as string) as Omit<ServiceSettings, 'servers'>;
      return {
        servers: JSON.parse(row.servers as string) as string[],
        ...rest,
        recordedAt: Number(row.recorded_at),
      };
    },
  };
}
