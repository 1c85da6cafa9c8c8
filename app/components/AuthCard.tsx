import type { ReactNode } from "react";
import "../styles/auth.css";

/** The card every account screen sits in. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="container auth-page">
      <div className="card auth-card">
        <h1 className="page-title">{title}</h1>
        {children}
      </div>
    </div>
  );
}

export const PASSWORD_HINT =
  "4-32 characters, with at least one digit, one uppercase letter, one lowercase letter and one special character.";
