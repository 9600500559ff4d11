import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { connect, type DetailedPeerCertificate, type TLSSocket } from 'node:tls';
import { X509Certificate } from 'node:crypto';

/**
 * A client that reaches any name on a TLS proxy listening on loopback: it connects to 127.0.0.1:port
 * and sends the name as SNI and Host, as a browser resolving the name to this machine would. Nothing
 * is read from /etc/hosts or DNS. Every request opens a new connection (a new handshake).
 */
export interface HttpsAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The certificate the proxy presented, with its chain (`issuerCertificate`). */
  certificate: DetailedPeerCertificate;
  /** Whether the chain verified against `ca` (when one was given). */
  authorized: boolean;
}

export interface HttpsOptions {
  port: number;
  host: string;
  path?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Roots to verify the chain against (the chain is reported, not required, when omitted). */
  ca?: string;
}

export function httpsRequest(options: HttpsOptions): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: options.port,
        servername: options.host,
        path: options.path ?? '/',
        method: options.method ?? 'GET',
        headers: { host: `${options.host}:${options.port}`, ...options.headers },
        agent: false,
        ca: options.ca,
        rejectUnauthorized: false,
        timeout: 15_000,
      },
      (response) => {
        const socket = response.socket as TLSSocket;
        const certificate = socket.getPeerCertificate(true);
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body,
            certificate,
            authorized: socket.authorized,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${options.host} within 15 s`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

export type Handshake = { ok: true; certificate: DetailedPeerCertificate } | { ok: false; error: string };

/** A TLS handshake alone, with `host` as SNI: the certificate presented, or how it failed. */
export function tlsHandshake(port: number, host: string): Promise<Handshake> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, servername: host, rejectUnauthorized: false });
    socket.setTimeout(15_000, () => {
      socket.destroy();
      resolve({ ok: false, error: 'timed out' });
    });
    socket.once('secureConnect', () => {
      const certificate = socket.getPeerCertificate(true);
      socket.destroy();
      resolve({ ok: true, certificate });
    });
    socket.once('error', (error) => resolve({ ok: false, error: error.message }));
  });
}

/** The presented chain, leaf first, as X509Certificate objects (up to the last certificate sent). */
export function chainOf(certificate: DetailedPeerCertificate): X509Certificate[] {
  const chain: X509Certificate[] = [];
  let current: DetailedPeerCertificate | undefined = certificate;
  while (current?.raw && chain.length < 5) {
    const x509 = new X509Certificate(current.raw);
    if (chain.some((seen) => seen.fingerprint256 === x509.fingerprint256)) break;
    chain.push(x509);
    current = current.issuerCertificate;
  }
  return chain;
}

/** Polls `probe` until it returns something other than undefined, or fails after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (${String(last)})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
