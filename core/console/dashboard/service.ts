import { requireRole } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import type { Deps } from "../../deps.ts";
import { presentDashboard, type Dashboard } from "./presenter.ts";
import * as repo from "./repository.ts";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** How many days the dashboard's chart shows, today included. */
export const CHART_DAYS = 30;

/** The console's first page: what happened lately and what waits for staff. */
export function createDashboardService({ db, now }: Deps) {
  return {
    async figures(user: CurrentUser | null): Promise<Dashboard> {
      requireRole(user, "moderator");
      const at = now();
      const lastDay = at.toISOString().slice(0, 10);
      const firstDay = new Date(at.getTime() - (CHART_DAYS - 1) * DAY_MS)
        .toISOString()
        .slice(0, 10);
      const [recent, queues, daily] = await Promise.all([
        repo.countRecent(db, new Date(at.getTime() - DAY_MS), new Date(at.getTime() - 7 * DAY_MS)),
        repo.countQueues(db),
        repo.countDaily(db, firstDay, lastDay),
      ]);
      return presentDashboard({ recent, queues, daily, generatedAt: at });
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
