import { makeTestApp, type TestApp } from './harness.ts';

/** A server with the API's lane and one without it (the framework alone), listening on loopback. */
export interface EdgePair {
  lane: TestApp;
  framework: TestApp;
  ports: { lane: number; framework: number };
}

/** Two apps on one database and one clock, each listening: one with the lane, one without it. */
export async function listeningPair(options: Parameters<typeof makeTestApp>[0] = {}): Promise<EdgePair> {
  const lane = await makeTestApp(options);
  const framework = await makeTestApp({ ...options, storage: lane.storage, clock: lane.clock });
  framework.app.server.removeAllListeners('request');
  framework.app.server.on('request', framework.app.withoutLane);
  await lane.app.listen({ port: 0, host: '127.0.0.1' });
  await framework.app.listen({ port: 0, host: '127.0.0.1' });
  const portOf = (app: TestApp) => (app.app.server.address() as { port: number }).port;
  return { lane, framework, ports: { lane: portOf(lane), framework: portOf(framework) } };
}

export async function closePair(pair: EdgePair): Promise<void> {
  await pair.framework.app.close();
  await pair.lane.close();
}
