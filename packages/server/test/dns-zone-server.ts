import dns2 from 'dns2';

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
  close(): Promise<void>;
}

/**
 * A DNS server on loopback playing the customer's DNS provider (and the internet's resolvers) for
 * tests: a mutable zone answered over UDP and TCP. A CNAME is followed inside the zone, as a recursive
 * resolver would; a name without records of the asked type is NODATA, an unknown name NXDOMAIN.
 */
export async function startZoneServer(): Promise<ZoneServer> {
  const zone = new Map<string, ZoneRecord[]>();
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
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      if (!question) return send(response);
      const name = question.name.toLowerCase().replace(/\.$/, '');
      if (!zone.has(name)) response.header.rcode = Packet.RCODE.NXDOMAIN;
      else response.answers.push(...(answer(name, question.type) as typeof response.answers));
      send(response);
    },
  });
  const addresses = await server.listen({
    udp: { port: 0, address: '127.0.0.1' },
    tcp: { port: 0, address: '127.0.0.1' },
  });
  const port = (addresses as { udp: { port: number } }).udp.port;
  return {
    address: `127.0.0.1:${port}`,
    port,
    set(name, records) {
      if (records.length === 0) zone.delete(name);
      else zone.set(name, records);
    },
    close: () => server.close(),
  };
}
