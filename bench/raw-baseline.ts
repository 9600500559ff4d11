import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

/**
 * The ceiling a Node HTTP server reaches on this machine: node:http answering every request with one
 * prebuilt Buffer (the same size and content type as the real response), reading request bodies to
 * the end first. `node bench/raw-baseline.ts --port P --body-file F [--content-type T] [--status N]`.
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    'body-file': { type: 'string' },
    'content-type': { type: 'string', default: 'application/json; charset=utf-8' },
    status: { type: 'string', default: '200' },
  },
});
if (values.port === undefined || values['body-file'] === undefined) {
  console.error('usage: node bench/raw-baseline.ts --port P --body-file F [--content-type T] [--status N]');
  process.exit(2);
}

const body = readFileSync(values['body-file']);
const status = Number(values.status);
const headers = { 'content-type': values['content-type'], 'content-length': String(body.length) };

const server = createServer((request, response) => {
  request.on('end', () => {
    response.writeHead(status, headers);
    response.end(body);
  });
  request.resume();
});
server.keepAliveTimeout = 65_000;
server.listen(Number(values.port), values.host);
process.once('SIGTERM', () => server.close(() => process.exit(0)));
