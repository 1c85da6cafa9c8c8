import type { ReactNode } from "react";
import { Field, type FieldProps } from "./Form.tsx";
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

/** What a form's `bind(name)` gives a Field. */
type Bound = Pick<FieldProps, "id" | "name" | "value" | "error" | "onChange">;

/**
 * A new password with the rules as its hint, and its confirmation: registering, resetting and
 * changing a password.
 */
export function NewPasswordFields({
  password,
  confirmation,
  label = "New Password",
}: {
  password: Bound;
  confirmation: Bound;
  label?: string;
}) {
  return (
    <>
      <Field
        {...password}
        label={label}
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_HINT}
      />
      <Field
        {...confirmation}
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
      />
    </>
  );
}
