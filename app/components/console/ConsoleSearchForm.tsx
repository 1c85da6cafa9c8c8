import { Form } from "react-router";

/**
 * The search box above a console list: a plain GET form, so the search lives in the URL (and a
 * new search starts at page 1).
 */
export function ConsoleSearchForm({
  search,
  label,
  placeholder,
}: {
  search: string;
  label: string;
  placeholder?: string;
}) {
  return (
    <Form method="get" className="console-toolbar" role="search" key={search}>
      <div className="form-field">
        <label htmlFor="console-search">{label}</label>
        <input
          id="console-search"
          name="search"
          type="search"
          defaultValue={search}
          placeholder={placeholder}
          maxLength={100}
        />
      </div>
      <button type="submit" className="btn btn-primary">
        Search
      </button>
    </Form>
  );
}
