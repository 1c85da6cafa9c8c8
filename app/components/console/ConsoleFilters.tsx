import type { FormEvent, ReactNode } from "react";
import { Link, useLocation, useNavigate } from "react-router";

/**
 * A console list's filters: a plain GET form whose values live in the URL (so a filtered list can
 * be bookmarked, shared and reloaded). With JavaScript, empty fields are left out of the address.
 */
export function ConsoleFilters({ label, children }: { label: string; children: ReactNode }) {
  const navigate = useNavigate();
  const location = useLocation();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) {
      if (typeof value === "string" && value.trim() !== "") params.set(name, value.trim());
    }
    const query = params.toString();
    void navigate(query ? `${location.pathname}?${query}` : location.pathname);
  }
  return (
    <form
      // A new address gives the fields their values again (they are uncontrolled).
      key={location.search}
      method="get"
      role="search"
      aria-label={label}
      className="console-toolbar console-filters"
      onSubmit={submit}
    >
      {children}
      <div className="console-filter-actions">
        <button type="submit" className="btn btn-sm console-btn-primary">
          Apply
        </button>
        <Link to={location.pathname} className="btn btn-sm console-btn-plain">
          Clear
        </Link>
      </div>
    </form>
  );
}

interface FilterFieldProps {
  name: string;
  label: string;
  /** The value in the URL. */
  value: string | number | undefined;
  /** A select's choices; without them, a text box. */
  options?: readonly { value: string; label: string }[];
  /** The select's "any" choice. */
  any?: string;
  placeholder?: string;
  type?: "text" | "search";
}

/** One labelled filter of a ConsoleFilters form. */
export function FilterField({
  name,
  label,
  value,
  options,
  any = "Any",
  placeholder,
  type = "text",
}: FilterFieldProps) {
  const id = `filter-${name}`;
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      {options ? (
        <select id={id} name={name} defaultValue={value === undefined ? "" : String(value)}>
          <option value="">{any}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          name={name}
          type={type}
          defaultValue={value === undefined ? "" : String(value)}
          placeholder={placeholder}
        />
      )}
    </div>
  );
}
