import { type ChildProcess, spawnSync } from 'node:child_process';

const TOOLS = ['caddy', 'pebble', 'openssl'];
const missing = TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);

/** Why the TLS tools cannot run here, or undefined when they are all installed. */
export const tlsToolsMissing =
  missing.length > 0
    ? `${missing.join(', ')} missing: install with \`bash scripts/ensure-tls-tools.sh\``
    : undefined;

/**
 * The skip reason of a test that runs Caddy and Pebble: none when they are installed, or when CI
 * requires them (PETSTORE_REQUIRE_TLS_TOOLS=1), so that a missing tool fails there instead.
 */
export const skipWithoutTlsTools =
  tlsToolsMissing !== undefined && process.env.PETSTORE_REQUIRE_TLS_TOOLS !== '1' ? tlsToolsMissing : false;

/**
 * Collects a tool's standard output and error until `ready` appears in them: resolves then, rejects
 * with everything it printed when it exits first or stays silent for 10 s. Returns the output so far.
 */
export async function untilPrinted(child: ChildProcess, name: string, ready: string): Promise<() => string> {
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within 10 s:\n${output}`)),
      10_000,
    );
    const collect = (chunk: Buffer) => {
      output += String(chunk);
      if (output.includes(ready)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${output}`));
    });
  });
  return () => output;
}
