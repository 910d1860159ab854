'use client';

import type { UsageBreakdownRow } from '@h/contracts/budget';
import { formatUsd } from './usage-format';

const HEIGHT = 120;
const BAR_GAP = 2;

/**
 * Cost per day of the month as bars (SVG, no chart library: one series, a few dozen bars). Each
 * bar's title says the day, its cost, runs and cache-hit ratio; the figure's label sums it up for
 * screen readers, and the same figures are in the tables below.
 */
export function UsageChart({ days, budgetUsd }: { days: UsageBreakdownRow[]; budgetUsd: number | null }) {
  const total = days.reduce((n, d) => n + d.costUsd, 0);
  const max = Math.max(...days.map((d) => d.costUsd), 0);
  const width = Math.max(days.length * 14, 14);
  const barWidth = width / Math.max(days.length, 1) - BAR_GAP;
  // A day's share of the monthly budget is what an owner compares against: mark the daily average
  // that would spend the budget by the month's end.
  const dailyBudget = budgetUsd !== null && days.length ? budgetUsd / daysInMonth(days[0].key) : null;
  const top = Math.max(max, dailyBudget ?? 0) || 1;
  return (
    <figure className="usage-chart">
      <svg
        viewBox={`0 0 ${width} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Cost per day: ${formatUsd(total)} over ${days.length} days, highest ${formatUsd(max)}`}
        data-testid="usage-chart"
      >
        {days.map((d, i) => {
          const h = (d.costUsd / top) * (HEIGHT - 4);
          return (
            <rect key={d.key} data-day={d.key} x={i * (barWidth + BAR_GAP)} y={HEIGHT - h} width={barWidth} height={Math.max(h, d.costUsd > 0 ? 1 : 0)} className="usage-bar">
              <title>{`${d.label}: ${formatUsd(d.costUsd)}, ${d.runs} run${d.runs === 1 ? '' : 's'}${d.cacheHitRatio === null ? '' : `, ${Math.round(d.cacheHitRatio * 100)} % cache hits`}`}</title>
            </rect>
          );
        })}
        {dailyBudget !== null ? <line x1={0} x2={width} y1={HEIGHT - (dailyBudget / top) * (HEIGHT - 4)} y2={HEIGHT - (dailyBudget / top) * (HEIGHT - 4)} className="usage-budget-line" /> : null}
      </svg>
      <figcaption className="muted small">
        Cost per day (UTC){dailyBudget !== null ? ` · the line is the budget spread over the month (${formatUsd(dailyBudget)} a day)` : ''}
      </figcaption>
    </figure>
  );
}

function daysInMonth(day: string): number {
  const [y, m] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}
