import { connect } from 'node:tls';

export type CertificateState =
  { state: 'issued'; issuer: string; validTo: number } | { state: 'none'; reason: string };

/** Where the TLS proxy listens, to ask it for a domain's certificate (PETSTORE_TLS_PROBE, `host:port`). */
export interface ProbeAddress {
  host: string;
  port: number;
}

const PROBE_TIMEOUT_MS = 3_000;

/**
 * The certificate the TLS proxy presents for a name, read by a TLS handshake with that SNI: the same
 * thing a visitor's browser would get (and, for on-demand TLS, the handshake that has it issued).
 * Verification of the chain is not the point here (tests check it against the CA's root); the name is.
 */
export function probeCertificate(address: ProbeAddress, hostname: string): Promise<CertificateState> {
  return new Promise((resolve) => {
    const socket = connect({
      host: address.host,
      port: address.port,
      servername: hostname,
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    });
    const finish = (state: CertificateState) => {
      socket.destroy();
      resolve(state);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () =>
      finish({ state: 'none', reason: 'the TLS proxy did not answer in time' }),
    );
    socket.once('error', (error) =>
      finish({
        state: 'none',
        reason: `no certificate yet (${(error as { code?: string }).code ?? error.message})`,
      }),
    );
    socket.once('secureConnect', () => {
      const certificate = socket.getPeerCertificate();
      const names = (certificate.subjectaltname ?? '')
        .split(/,\s*/)
        .map((entry) => entry.replace(/^DNS:/, ''));
      if (!certificate.valid_to || !names.includes(hostname)) {
        finish({ state: 'none', reason: 'the TLS proxy has no certificate for this name yet' });
        return;
      }
      const issuer = certificate.issuer?.O ?? certificate.issuer?.CN ?? 'unknown';
      finish({
        state: 'issued',
        issuer: Array.isArray(issuer) ? issuer.join(', ') : issuer,
        validTo: Date.parse(certificate.valid_to),
      });
    });
  });
}
