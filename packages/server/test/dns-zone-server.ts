import dns2 from 'dns2';
import { listenOnLowPort } from './low-ports.ts';

const { Packet } = dns2;

/** A record of the test zone. CAA carries tag and value, TXT one string. */
export type ZoneRecord =
  | { type: 'A' | 'AAAA' | 'CNAME' | 'TXT'; value: string }
  | { type: 'CAA'; tag: 'issue' | 'issuewild' | 'iodef'; value: string };

export interface ZoneServer {
  /** `127.0.0.1:<port>`, for PETSTORE_DNS_SERVERS, a node:dns Resolver or Pebble's -dnsserver. */
  address: string;
  port: number;
  /** Replaces every record of a name (none: the name disappears). */
  set(name: string, records: ZoneRecord[]): void;
  /**
   * How the server behaves from now on: `answer` (the default), `silent` (never replies), `refuse`
   * (REFUSED), `servfail` (SERVFAIL) or `{ delayMs }` (answers, that late).
   */
  behave(mode: ZoneMode): void;
  /** How the server behaves now. */
  mode(): ZoneMode;
  /** Stops listening (queries meet a closed port: ECONNREFUSED), and listens again on the same port. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export type ZoneMode = 'answer' | 'silent' | 'refuse' | 'servfail' | { delayMs: number };

/**
 * A DNS server on loopback playing the customer's DNS provider (and the internet's resolvers) for
 * tests: a mutable zone answered over UDP and TCP. A CNAME is followed inside the zone, as a recursive
 * resolver would; a name without records of the asked type is NODATA, an unknown name NXDOMAIN.
 */
export async function startZoneServer(): Promise<ZoneServer> {
  const zone = new Map<string, ZoneRecord[]>();
  let mode: ZoneMode = 'answer';
  const answer = (name: string, type: number, depth = 0): object[] => {
    const records = zone.get(name) ?? [];
    const cname = records.find((r) => r.type === 'CNAME');
    if (cname && type !== Packet.TYPE.CNAME && depth < 8) {
      return [
        { name, type: Packet.TYPE.CNAME, class: Packet.CLASS.IN, ttl: 1, domain: cname.value },
        ...answer(cname.value, type, depth + 1),
      ];
    }
    return records
      .filter((r) => Packet.TYPE[r.type] === type)
      .map((r) => {
        const base = { name, type, class: Packet.CLASS.IN, ttl: 1 };
        switch (r.type) {
          case 'A':
          case 'AAAA':
            return { ...base, address: r.value };
          case 'CNAME':
            return { ...base, domain: r.value };
          case 'TXT':
            return { ...base, data: r.value };
          case 'CAA':
            return { ...base, flags: 0, tag: r.tag, value: r.value };
        }
      });
  };
  const handle: dns2.DnsHandler = (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    if (mode === 'silent') return;
    if (mode === 'refuse' || mode === 'servfail') {
      response.header.rcode = mode === 'refuse' ? 5 : 2;
      return send(response);
    }
    if (question) {
      const name = question.name.toLowerCase().replace(/\.$/, '');
      if (!zone.has(name)) response.header.rcode = Packet.RCODE.NXDOMAIN;
      else response.answers.push(...(answer(name, question.type) as typeof response.answers));
    }
    if (typeof mode === 'object') {
      setTimeout(() => {
        if (!listening) return; // a late answer to a server stopped meanwhile is never sent
        Promise.resolve()
          .then(() => send(response))
          .catch(() => {});
      }, mode.delayMs).unref();
    } else send(response);
  };
  /** Listens on UDP and TCP at `port`; rejects (with both released) when either cannot bind. */
  const listen = async (port: number) => {
    const server = dns2.createServer({ udp: true, tcp: true, handle });
    const failed = new Promise<never>((_, reject) => server.once('error', reject));
    try {
      await Promise.race([
        server.listen({ udp: { port, address: '127.0.0.1' }, tcp: { port, address: '127.0.0.1' } }),
        failed,
      ]);
      return server;
    } catch (error) {
      const sockets = (server as unknown as { servers: Record<string, { close(): void }> }).servers;
      for (const socket of Object.values(sockets)) {
        try {
          socket.close();
        } catch {
          // Never bound.
        }
      }
      throw error;
    }
  };
  // Below the ephemeral range (low-ports.ts): restart() finds the port stop() released still free.
  const first = await listenOnLowPort(listen);
  const port = first.port;
  let server = first.listening;
  let listening = true;
  return {
    address: `127.0.0.1:${port}`,
    port,
    set(name, records) {
      if (records.length === 0) zone.delete(name);
      else zone.set(name, records);
    },
    behave(next) {
      mode = next;
    },
    mode: () => mode,
    async stop() {
      listening = false;
      await server.close();
    },
    async restart() {
      server = await listen(port);
      listening = true;
    },
    close: async () => {
      if (listening) await server.close();
    },
  };
}
