import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Family, MetricType } from './exposition.ts';

export interface ProcessMetrics {
  /** Reading them also restarts the event-loop delay measurement, so lag is reported per scrape. */
  families(): Family[];
  close(): void;
}

function single(name: string, help: string, type: MetricType, value: number): Family {
  return { name, help, type, samples: [{ suffix: '', labels: '', value }] };
}

/** Memory, CPU, start time and event-loop lag of this process, under the names Node dashboards expect. */
export function createProcessMetrics(): ProcessMetrics {
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  const startTime = Math.round((Date.now() - process.uptime() * 1_000) / 1_000);

  return {
    families() {
      const memory = process.memoryUsage();
      const cpu = process.cpuUsage();
      // Without a sample yet the histogram reports its extremes; report 0 rather than nonsense.
      const lag = (value: number) => (loop.count > 0 ? value / 1e9 : 0);
      const families = [
        single('process_resident_memory_bytes', 'Resident memory size in bytes.', 'gauge', memory.rss),
        single('nodejs_heap_size_used_bytes', 'V8 heap in use, in bytes.', 'gauge', memory.heapUsed),
        single('nodejs_heap_size_total_bytes', 'V8 heap allocated, in bytes.', 'gauge', memory.heapTotal),
        single(
          'process_cpu_seconds_total',
          'User and system CPU time spent, in seconds.',
          'counter',
          (cpu.user + cpu.system) / 1e6,
        ),
        single(
          'process_start_time_seconds',
          'Start time of the process, in Unix seconds.',
          'gauge',
          startTime,
        ),
        single(
          'nodejs_eventloop_lag_p99_seconds',
          'Event-loop delay, 99th percentile since the previous scrape, in seconds.',
          'gauge',
          lag(loop.percentile(99)),
        ),
        single(
          'nodejs_eventloop_lag_max_seconds',
          'Event-loop delay, maximum since the previous scrape, in seconds.',
          'gauge',
          lag(loop.max),
        ),
      ];
      loop.reset();
      return families;
    },
    close: () => loop.disable(),
  };
}
