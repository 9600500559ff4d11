import type { Period, Step } from './usage-series.ts';
import { type Html, html } from '../../web/html.ts';

export interface ChartOptions {
  /** Unique on the page: ids of the title, description and table derive from it. */
  id: string;
  heading: string;
  periods: readonly Period[];
  step: Step;
  /** Where the numbers behind the chart download as CSV. */
  csvHref: string;
  /** A lower chart, for a list of them (the keys). */
  compact?: boolean;
}

const WIDTH = 600;
const SERIES = [
  ['ok', '2xx', 'ok'],
  ['clientErrors', '4xx (not 429)', 'client'],
  ['rateLimited', '429', 'limited'],
  ['serverErrors', '5xx', 'server'],
] as const;

export const periodLabel = (start: number, step: Step): string => {
  const iso = new Date(start).toISOString();
  return step === 'hour' ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso.slice(0, 10);
};

const count = (n: number) => n.toLocaleString('en-US');
const ms = (value: number | null) => (value === null ? '–' : `${value} ms`);

function summary(periods: readonly Period[], step: Step): string {
  const sum = (pick: (p: Period) => number) => periods.reduce((total, p) => total + pick(p), 0);
  const total = sum((p) => p.total);
  if (total === 0) return `No requests in these ${periods.length} ${step}s.`;
  const busiest = periods.reduce((best, p) => (p.total > best.total ? p : best));
  return (
    `${count(total)} requests: ${count(sum((p) => p.ok))} 2xx, ${count(sum((p) => p.clientErrors))} 4xx, ` +
    `${count(sum((p) => p.rateLimited))} 429, ${count(sum((p) => p.serverErrors))} 5xx. ` +
    `Busiest ${step}: ${periodLabel(busiest.start, step)} with ${count(busiest.total)}.`
  );
}

function bars(periods: readonly Period[], step: Step, height: number): Html[] {
  const max = Math.max(1, ...periods.map((p) => p.total));
  const slot = WIDTH / periods.length;
  const barWidth = Math.max(1, slot * 0.75);
  return periods.map((period, index) => {
    let y = height;
    const rects = SERIES.map(([field, , cls]) => {
      const value = period[field];
      if (value === 0) return '';
      const h = (value / max) * (height - 4);
      y -= h;
      return html`<rect
        class="bar-${cls}"
        x="${(index * slot).toFixed(1)}"
        y="${y.toFixed(1)}"
        width="${barWidth.toFixed(1)}"
        height="${h.toFixed(1)}"
      />`;
    });
    return html`<g>
      <title>
        ${periodLabel(period.start, step)}: ${count(period.total)} requests (2xx ${count(period.ok)}, 4xx
        ${count(period.clientErrors)}, 429 ${count(period.rateLimited)}, 5xx ${count(period.serverErrors)}),
        p50 ${ms(period.p50Ms)}, p99 ${ms(period.p99Ms)}
      </title>
      ${rects}
    </g>`;
  });
}

/**
 * Requests per period as stacked bars (2xx, 4xx, 429, 5xx), drawn on the server as SVG with a title
 * and a description stating the totals, a legend, the numbers as a table and a CSV download: nothing
 * runs in the browser, so the dashboard's CSP holds, and the SVG scales to any width.
 */
export function usageChart(options: ChartOptions): Html {
  const { id, heading, periods, step } = options;
  const height = options.compact ? 80 : 160;
  const max = Math.max(0, ...periods.map((p) => p.total));
  return html`<figure class="chart" aria-labelledby="${id}-caption">
    <figcaption id="${id}-caption">${heading}</figcaption>
    <svg
      role="img"
      aria-labelledby="${id}-title ${id}-desc"
      viewBox="0 0 ${WIDTH} ${height}"
      preserveAspectRatio="none"
      class="${options.compact ? 'compact' : ''}"
    >
      <title id="${id}-title">${heading}</title>
      <desc id="${id}-desc">${summary(periods, step)}</desc>
      <line class="axis" x1="0" y1="${height - 0.5}" x2="${WIDTH}" y2="${height - 0.5}" />
      ${bars(periods, step, height)}
    </svg>
    <div class="chart-scale small muted">
      <span>${periodLabel(periods[0]!.start, step)}</span><span>highest: ${count(max)}</span
      ><span>${periodLabel(periods.at(-1)!.start, step)}</span>
    </div>
    <ul class="legend small">
      ${SERIES.map(([, label, cls]) => html`<li><span class="swatch bar-${cls}" aria-hidden="true"></span>${label}</li>`)}
    </ul>
    <details>
      <summary>The numbers behind the chart</summary>
      <div class="table-wrap" tabindex="0" role="region" aria-label="${heading}: numbers">
        <table>
          <thead>
            <tr>
              <th scope="col">${step === 'hour' ? 'Hour' : 'Day'}</th>
              <th scope="col">2xx</th>
              <th scope="col">4xx</th>
              <th scope="col">429</th>
              <th scope="col">5xx</th>
              <th scope="col">p50</th>
              <th scope="col">p99</th>
            </tr>
          </thead>
          <tbody>
            ${periods.map(
              (p) =>
                html`<tr>
                  <th scope="row">${periodLabel(p.start, step)}</th>
                  <td>${count(p.ok)}</td>
                  <td>${count(p.clientErrors)}</td>
                  <td>${count(p.rateLimited)}</td>
                  <td>${count(p.serverErrors)}</td>
                  <td>${ms(p.p50Ms)}</td>
                  <td>${ms(p.p99Ms)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </details>
    <p class="small">
      <a href="${options.csvHref}" download
        >Download CSV<span class="visually-hidden"> of ${heading}</span></a
      >
    </p>
  </figure>`;
}
