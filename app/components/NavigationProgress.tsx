import { useEffect, useState } from "react";
import "../styles/progress.css";
import { useNavigation } from "react-router";

/** Navigations quicker than this show no bar: a flash would only distract. */
export const PROGRESS_DELAY_MS = 150;

/**
 * A thin bar at the top of the window while a client navigation (a page's data, a form) takes
 * longer than PROGRESS_DELAY_MS. It is an indeterminate progress bar with a name, so a screen
 * reader that lands on it hears what is happening; with reduced motion it stands still.
 */
export function NavigationProgress() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [late, setLate] = useState(false);

  useEffect(() => {
    if (!busy) return;
    const timer = window.setTimeout(() => setLate(true), PROGRESS_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      setLate(false);
    };
  }, [busy]);

  if (!busy || !late) return null;
  return (
    <div className="nav-progress" role="progressbar" aria-label="Loading page">
      <span className="nav-progress-bar" />
    </div>
  );
}
