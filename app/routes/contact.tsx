import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { contactProblem, type ContactInput } from "../../core/contact/schema.ts";
import { CONTACT_CATEGORIES, DELAYS_MS } from "../../core/constants.ts";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { FeaturedStoresCarousel } from "../components/FeaturedStoresCarousel.tsx";
import { apiCall } from "../lib/api.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/contact";
// Breadcrumbs are styled with the listing pages.
import "../styles/listings.css";
import "../styles/contact.css";

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  return { featuredStores: await services.cms.featuredStores() };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Contact Us",
    description:
      "Questions, feedback, a problem with a deal, coupon or forum post, or a DMCA notice? Send us a message and we will get back to you.",
    path: "/contact",
  });

const CATEGORY_LABELS: Record<(typeof CONTACT_CATEGORIES)[number], string> = {
  inquiry: "Inquiry",
  feedback: "Feedback",
  suggestions: "Suggestions",
  "coupons-issue": "Coupons issue",
  "deal-issue": "Deal issue",
  "forums-issue": "Forums issue",
  "report-user": "Report a user",
  dmca: "DMCA",
  others: "Others",
};

type Values = Required<{ [K in keyof ContactInput]: string }>;

const EMPTY: Values = {
  name: "",
  category: "inquiry",
  subject: "",
  email: "",
  mobile: "",
  website: "",
  message: "",
};

type Alert = { kind: "success" | "danger"; text: string } | null;

interface FieldProps {
  name: keyof Values;
  label: string;
  required?: boolean;
  type?: string;
  autoComplete?: string;
  inputMode?: "numeric" | "tel" | "email" | "url" | "text";
  values: Values;
  errors: Record<string, string>;
  onChange: (
    event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>,
  ) => void;
}

function TextField({
  name,
  label,
  required,
  type = "text",
  autoComplete,
  inputMode,
  values,
  errors,
  onChange,
}: FieldProps) {
  const id = `contact-${name}`;
  const error = errors[name];
  return (
    <div className="form-field">
      <label htmlFor={id}>
        {label}
        {required ? (
          <span aria-hidden="true"> *</span>
        ) : (
          <span className="optional"> (optional)</span>
        )}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        value={values[name]}
        onChange={onChange}
        required={required}
        autoComplete={autoComplete}
        inputMode={inputMode}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export default function ContactPage() {
  const { featuredStores } = useLoaderData<typeof loader>();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<Alert>(null);
  const [sending, setSending] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  function onChange(
    event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>,
  ) {
    const { name, value } = event.target;
    setValues((v) => ({ ...v, [name]: value }));
    if (errors[name]) setErrors(({ [name]: _fixed, ...rest }) => rest);
  }

  /** The spec: a failure shows for 3 s; a success shows, then the form resets after 3 s. */
  function show(next: Alert, resetForm = false) {
    clearTimeout(timer.current);
    setAlert(next);
    timer.current = setTimeout(
      () => {
        setAlert(null);
        if (resetForm) {
          setValues(EMPTY);
          setErrors({});
        }
      },
      resetForm ? DELAYS_MS.contactReset : DELAYS_MS.feedback,
    );
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = contactProblem(values);
    if (problem) {
      setErrors(problem.errors);
      show({ kind: "danger", text: problem.message });
      return;
    }
    setSending(true);
    const result = await apiCall<{ message?: string; errors?: Record<string, string> }>(
      "/contact_us",
      values,
    );
    setSending(false);
    if (result.ok) {
      setErrors({});
      show({ kind: "success", text: result.data.message ?? "" }, true);
    } else {
      setErrors(result.data.errors ?? {});
      show({
        kind: "danger",
        text: result.data.message || "Sorry, your message could not be sent.",
      });
    }
  }

  const fieldProps = { values, errors, onChange };

  return (
    <div className="container contact-page">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Contact Us" }]} />
      <h1 className="page-title">Contact Us</h1>
      <div className="contact-layout">
        <form
          className="form contact-form card"
          onSubmit={submit}
          noValidate
          aria-describedby="contact-intro"
        >
          <p id="contact-intro" className="contact-intro">
            Fields marked * are required.
          </p>
          <div className="contact-status" aria-live="polite" role="status">
            {alert && <p className={`alert alert-${alert.kind}`}>{alert.text}</p>}
          </div>
          <TextField name="name" label="Name" required autoComplete="name" {...fieldProps} />
          <div className="form-field">
            <label htmlFor="contact-category">Category</label>
            <select
              id="contact-category"
              name="category"
              value={values.category}
              onChange={onChange}
            >
              {CONTACT_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {CATEGORY_LABELS[category]}
                </option>
              ))}
            </select>
            {errors.category && <p className="field-error">{errors.category}</p>}
          </div>
          <TextField name="subject" label="Subject" required {...fieldProps} />
          <TextField
            name="email"
            label="Email"
            type="email"
            required
            autoComplete="email"
            inputMode="email"
            {...fieldProps}
          />
          <TextField
            name="mobile"
            label="Mobile"
            type="tel"
            required
            autoComplete="tel"
            inputMode="tel"
            {...fieldProps}
          />
          <TextField
            name="website"
            label="Website"
            type="url"
            autoComplete="url"
            inputMode="url"
            {...fieldProps}
          />
          <div className="form-field">
            <label htmlFor="contact-message">
              Message<span className="optional"> (optional)</span>
            </label>
            <textarea
              id="contact-message"
              name="message"
              value={values.message}
              onChange={onChange}
              maxLength={5000}
              aria-invalid={errors.message ? true : undefined}
              aria-describedby={errors.message ? "contact-message-error" : undefined}
            />
            {errors.message && (
              <p id="contact-message-error" className="field-error">
                {errors.message}
              </p>
            )}
          </div>
          <button type="submit" className="btn btn-primary" disabled={sending}>
            {sending ? "Loading…" : "SUBMIT"}
          </button>
        </form>
        <FeaturedStoresCarousel stores={featuredStores} />
      </div>
    </div>
  );
}
