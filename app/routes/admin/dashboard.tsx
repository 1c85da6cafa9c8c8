import { requestContext } from "#app-context";
import { requireConsoleUser } from "../../lib/console.server.ts";
import type { Route } from "./+types/dashboard";

export async function loader({ context }: Route.LoaderArgs) {
  requireConsoleUser(context.get(requestContext));
  return null;
}

export default function Dashboard() {
  return <h1>Dashboard</h1>;
}
