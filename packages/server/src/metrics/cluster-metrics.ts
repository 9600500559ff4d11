import type { Cluster, Worker } from 'node:cluster';
import { type Family, formatLabels, joinLabels } from './exposition.ts';

/**
 * Workers sharing a port share one /metrics: whichever worker a scrape reaches asks the primary, which
 * collects every worker's metrics (each series labelled with the worker's slot) and hands them back.
 */
const REQUEST = 'petstore:metrics:request';
const COLLECT = 'petstore:metrics:collect';
const SNAPSHOT = 'petstore:metrics:snapshot';
const RESULT = 'petstore:metrics:result';

interface Message {
  type?: string;
  id?: number;
  families?: Family[];
}

const WORKER_TIMEOUT_MS = 1_000;
const PRIMARY_TIMEOUT_MS = 2_000;

function labelled(families: Family[], labels: string): Family[] {
  return families.map((family) => ({
    ...family,
    samples: family.samples.map((sample) => ({ ...sample, labels: joinLabels(labels, sample.labels) })),
  }));
}

export interface WorkerMetrics {
  /** Every worker's metrics, or only this one's when the primary does not answer in time. */
  gather(): Promise<Family[]>;
  close(): void;
}

/** In a worker: answers the primary's collection requests and gathers through it. */
export function workerMetrics(slot: string, local: () => Family[]): WorkerMetrics {
  const labels = formatLabels({ worker: slot });
  const own = () => labelled(local(), labels);
  const waiting = new Map<number, (families: Family[]) => void>();
  let nextId = 0;
  const onMessage = (message: Message) => {
    if (message?.type === COLLECT) process.send?.({ type: SNAPSHOT, id: message.id, families: own() });
    if (message?.type === RESULT && message.id !== undefined)
      waiting.get(message.id)?.(message.families ?? []);
  };
  process.on('message', onMessage);

  return {
    gather() {
      if (!process.send || !process.connected) return Promise.resolve(own());
      const id = nextId++;
      return new Promise((resolve) => {
        const timer = setTimeout(() => finish(own()), PRIMARY_TIMEOUT_MS);
        const finish = (families: Family[]) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(families);
        };
        waiting.set(id, finish);
        process.send!({ type: REQUEST, id });
      });
    },
    close: () => process.off('message', onMessage),
  };
}

/** In the primary: relays a worker's request to every live worker and returns what came back in time. */
export function relayClusterMetrics(cluster: Cluster): void {
  const collections = new Map<number, { families: Family[]; pending: Set<number>; done: () => void }>();
  let nextId = 0;

  const collect = (requester: Worker, requestId: number) => {
    const id = nextId++;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w?.isConnected());
    const collection = {
      families: [] as Family[],
      pending: new Set(workers.map((w) => w.id)),
      done: () => {},
    };
    const timer = setTimeout(() => collection.done(), WORKER_TIMEOUT_MS);
    collection.done = () => {
      clearTimeout(timer);
      collections.delete(id);
      if (requester.isConnected())
        requester.send({ type: RESULT, id: requestId, families: collection.families });
    };
    collections.set(id, collection);
    for (const worker of workers) worker.send({ type: COLLECT, id });
  };

  cluster.on('message', (worker: Worker, message: Message) => {
    if (message?.type === REQUEST && message.id !== undefined) collect(worker, message.id);
    if (message?.type === SNAPSHOT && message.id !== undefined) {
      const collection = collections.get(message.id);
      if (!collection) return;
      collection.families.push(...(message.families ?? []));
      collection.pending.delete(worker.id);
      if (collection.pending.size === 0) collection.done();
    }
  });
}
