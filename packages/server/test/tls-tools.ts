import { spawnSync } from 'node:child_process';

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
