import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { createServer } from 'node:http';
import { checkHalfOpen, checkNodeClosing } from '../src/http/node-behaviour.ts';

const ROOT = new URL('../../../', import.meta.url);

/** The version of Node the lockfile's `node` development dependency installs (what npm scripts run). */
function lockedNode(): string {
  const lock = JSON.parse(readFileSync(new URL('package-lock.json', ROOT), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  const version = lock.packages['node_modules/node']?.version;
  assert.ok(version, 'package-lock.json pins node_modules/node');
  return version;
}

describe('the Node version the server runs on', () => {
  it('every FROM node: image of the Dockerfile is the exact version the lockfile pins, which the scripts run', () => {
    const version = lockedNode();
    const images = [
      ...readFileSync(new URL('Dockerfile', ROOT), 'utf8').matchAll(/^FROM\s+node:(\S+)/gm),
    ].map((match) => match[1]);
    assert.ok(images.length > 0, 'the Dockerfile starts from a node image');
    assert.deepEqual(
      images,
      images.map(() => `${version}-slim`),
    );
    assert.equal(process.version, `v${version}`);
  });

  it("start-up check: this Node closes a socket by destroySoon() destroying it on 'finish'", () => {
    assert.doesNotThrow(() => checkNodeClosing());
  });

  it('start-up check: a Node closing sockets otherwise fails it, naming what the edge relies on', () => {
    const socket = new Socket();
    Object.assign(socket, { destroySoon: () => socket.destroy() });
    assert.throws(() => checkNodeClosing(socket), /destroySoon\(\).*http\/turns\.ts.*lockfile pins/s);
  });

  it("start-up check: this Node's HTTP server has httpAllowHalfOpen, which the edge sets", () => {
    assert.doesNotThrow(() => checkHalfOpen(createServer()));
  });

  it('start-up check: a server without httpAllowHalfOpen fails it, naming what the edge relies on', () => {
    const server = createServer();
    delete (server as { httpAllowHalfOpen?: boolean }).httpAllowHalfOpen;
    assert.throws(() => checkHalfOpen(server), /httpAllowHalfOpen.*http\/edge\.ts.*lockfile pins/s);
  });
});
