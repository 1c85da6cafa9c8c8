import type { DailyCount, QueueSizes, RecentCount } from "./repository.ts";

export interface DashboardFigures {
  recent: RecentCount[];
  queues: QueueSizes;
  daily: DailyCount[];
  generatedAt: Date;
}

/** The figures as the console page and `GET /api/admin/dashboard` show them. */
export function presentDashboard(figures: DashboardFigures) {
  const recent = Object.fromEntries(
    figures.recent.map((row) => [row.what, { last_24h: row.day, last_7d: row.week }]),
  ) as Record<RecentCount["what"], { last_24h: number; last_7d: number }>;
  return {
    recent,
    queues: figures.queues,
    daily: figures.daily,
    generated_at: figures.generatedAt.toISOString(),
  };
}

export type Dashboard = ReturnType<typeof presentDashboard>;

/** `GET /api/admin/dashboard`. */
export function presentDashboardResponse(dashboard: Dashboard) {
  return { status: "true", response: dashboard };
}
