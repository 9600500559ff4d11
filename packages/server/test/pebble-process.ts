import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { get } from 'node:https';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './scaleout-servers.ts';
import { untilPrinted } from './tls-tools.ts';

const run = promisify(execFile);

export interface Pebble {
  child: ChildProcess;
  /** The ACME directory, `https://127.0.0.1:<port>/dir`. */
  directory: string;
  /** The self-signed certificate of Pebble's own HTTPS listeners: what an ACME client must trust to talk to it. */
  listenerCertFile: string;
  /** The root the issued certificates chain to (PEM), from the management interface's `/roots/0`. */
  root: string;
  /** Everything Pebble logged so far. */
  output(): string;
}

/**
 * A certificate and key for Pebble's own listeners, made here: Pebble's example certificate is not
 * shipped by Debian, and a fresh one per run keeps nothing secret in the repository.
 */
async function listenerCertificate(dir: string): Promise<{ cert: string; key: string }> {
  const cert = join(dir, 'pebble-listener.pem');
  const key = join(dir, 'pebble-listener-key.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=pebble listener',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  return { cert, key };
}

function fetchPem(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, { ca }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        response.statusCode === 200 ? resolve(body) : reject(new Error(`${url}: ${response.statusCode}`)),
      );
    }).on('error', reject);
  });
}

/**
 * Pebble, Let's Encrypt's test CA, on loopback: it validates every challenge for real (no
 * PEBBLE_VA_ALWAYS_VALID), at `httpPort` (HTTP-01) and `tlsPort` (TLS-ALPN-01) of the address that
 * `dnsServer` gives for the name. Its random sleeps before validating are off, and it never rejects a
 * good nonce, so an issuance takes well under a second.
 */
export async function startPebble(options: {
  dir: string;
  dnsServer: string;
  httpPort: number;
  tlsPort: number;
}): Promise<Pebble> {
  const { cert, key } = await listenerCertificate(options.dir);
  const [acmePort, managementPort] = [await freePort(), await freePort()];
  const configFile = join(options.dir, 'pebble-config.json');
  await writeFile(
    configFile,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: cert,
        privateKey: key,
        httpPort: options.httpPort,
        tlsPort: options.tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const child = spawn('pebble', ['-config', configFile, '-dnsserver', options.dnsServer], {
    env: { PATH: process.env.PATH, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = await untilPrinted(child, 'Pebble', 'ACME directory available');
  const listenerCert = await readFile(cert, 'utf8');
  const root = await fetchPem(`https://127.0.0.1:${managementPort}/roots/0`, listenerCert);
  return {
    child,
    directory: `https://127.0.0.1:${acmePort}/dir`,
    listenerCertFile: cert,
    root,
    output,
  };
}
