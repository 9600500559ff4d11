/**
 * Exports of one project's request log streaming at once (the management API's NDJSON and the
 * dashboard's CSV and NDJSON together), on one instance: each one holds a page of rows and the storage's
 * turns while it streams, so one project's exports never take more than their share.
 */
export const EXPORTS_PER_PROJECT = 2;
/** Exports of one access token, or one dashboard session, streaming at once, on one instance. */
export const EXPORTS_PER_HOLDER = 1;
/** The Retry-After of an export refused over its caps, in seconds. */
export const EXPORT_RETRY_AFTER_SECONDS = 5;

/** What an export may start with: its project, and who asks (a token or a session, by id). */
export interface ExportHolder {
  projectId: string;
  holder: string;
}

export interface ExportSlots {
  /**
   * A slot for one export, or which cap refused it. `release` frees the slot; calling it again does
   * nothing, so every way an export ends (finished, failed, the client gone) may call it.
   */
  take(asker: ExportHolder): { ok: true; release: () => void } | { ok: false; cap: 'project' | 'holder' };
  /** Exports streaming now (the metrics and tests read it). */
  readonly streaming: number;
}

/** The caps of exports streaming at once, counted in memory per instance. */
export function createExportSlots(limits: { perProject?: number; perHolder?: number } = {}): ExportSlots {
  const perProject = limits.perProject ?? EXPORTS_PER_PROJECT;
  const perHolder = limits.perHolder ?? EXPORTS_PER_HOLDER;
  const projects = new Map<string, number>();
  const holders = new Map<string, number>();
  let streaming = 0;
  const add = (counts: Map<string, number>, name: string, by: number) => {
    const count = (counts.get(name) ?? 0) + by;
    if (count === 0) counts.delete(name);
    else counts.set(name, count);
  };
  return {
    get streaming() {
      return streaming;
    },
    take({ projectId, holder }) {
      if ((holders.get(holder) ?? 0) >= perHolder) return { ok: false, cap: 'holder' };
      if ((projects.get(projectId) ?? 0) >= perProject) return { ok: false, cap: 'project' };
      add(projects, projectId, 1);
      add(holders, holder, 1);
      streaming++;
      let held = true;
      return {
        ok: true,
        release: () => {
          if (!held) return;
          held = false;
          add(projects, projectId, -1);
          add(holders, holder, -1);
          streaming--;
        },
      };
    },
  };
}
