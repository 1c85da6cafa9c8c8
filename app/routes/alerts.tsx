import { useEffect, useRef, useState, type FormEvent } from "react";
import { Form, data, redirect, useActionData, useLoaderData, useRevalidator } from "react-router";
import { requestContext } from "#app-context";
import { loginRedirectFor } from "../../core/auth/return-path.ts";
import {
  ALERT_MESSAGES,
  AlertSaveBody,
  DELIVERIES,
  MAX_KEYWORDS_LENGTH,
  alertSaveFields,
} from "../../core/member/alerts/schema.ts";
import type { AlertView } from "../../core/member/alerts/presenter.ts";
import type { DealCardView } from "../../core/cards/card-view.ts";
import { ConfirmDialog } from "../components/ConfirmDialog.tsx";
import { DealGrid } from "../components/DealCard.tsx";
import { CsrfField, Field } from "../components/Form.tsx";
import { apiCall, type ApiPathFor } from "../lib/api.ts";
import { messageOf, useTypedBeforeHydration } from "../lib/api-form.ts";
import { formAction } from "../lib/form-action.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { PushToggle } from "../components/PushToggle.tsx";
import "../styles/alerts.css";
import "../styles/notifications.css";
import type { Route } from "./+types/alerts";

/** The signed-in member's keyword alerts (record 0045); a visitor goes to /login. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, user, csrfToken } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  const [alerts, stores, categories, pushSpeed] = await Promise.all([
    services.alerts.list(user),
    services.catalog.allStores(),
    services.catalog.allCategories(),
    services.push.alertSpeed(),
  ]);
  return {
    alerts,
    pushSpeed,
    stores: stores.map((s) => ({ id: s.id, title: s.title })),
    categories: categories.map((c) => ({ id: c.id, title: c.title })),
    csrfToken: csrfToken(),
  };
}

/**
 * The editor posted to the page (docs/decisions/0079): read by alertSaveFields, checked by
 * `POST /api/alert_save`'s schema and saved by its service for the session's member, whose
 * alerts alone it can change. A visitor goes to /login, as the loader sends them. The answer
 * also carries what the form shows beyond its text fields: the chosen stores of a refused form,
 * and a new alert's private feed address, which is given only once.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, user } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  const stores = (await request.clone().formData()).getAll("store_id").map(String);
  let rss = null as { id: number; url: string } | null;
  const answer = await formAction(
    request,
    AlertSaveBody,
    async (input) => {
      const saved = await services.alerts.save(user, input);
      if (saved.rss_url) rss = { id: saved.alert.id, url: saved.rss_url };
      return saved.message;
    },
    {
      fields: alertSaveFields,
      // As the JSON call's answer words it: the first field's message.
      validationMessage: (errors) => Object.values(errors)[0] ?? NOT_SAVED,
    },
  );
  return data(
    { ...answer.data, stores: answer.data.ok ? [] : stores, rss },
    answer.init ?? undefined,
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Alerts", path: "/user/alerts", noindex: true });

const NOT_SAVED = "The alert was not saved.";

interface Draft {
  id: string;
  keywords: string;
  store_id: string[];
  category_id: string;
  max_price: string;
  min_discount: string;
  only_hot: boolean;
  delivery: "instant" | "daily" | "site";
  digest_hour: string;
  paused: boolean;
}

/** The editor's text and single-choice fields, named as in Draft. */
const TYPED_FIELDS = ["keywords", "category_id", "max_price", "min_discount"] as const;

const EMPTY: Draft = {
  id: "",
  keywords: "",
  store_id: [],
  category_id: "",
  max_price: "",
  min_discount: "",
  only_hot: false,
  delivery: "instant",
  digest_hour: "8",
  paused: false,
};

const draftOf = (a: AlertView): Draft => ({
  id: String(a.id),
  keywords: a.keywords,
  store_id: a.store_id.map(String),
  category_id: a.category_id === null ? "" : String(a.category_id),
  max_price: a.max_price === null ? "" : String(a.max_price),
  min_discount: a.min_discount === null ? "" : String(a.min_discount),
  only_hot: a.only_hot,
  delivery: a.delivery,
  digest_hour: String(a.digest_hour),
  paused: a.paused,
});

/** The editor as the page's action left it: a refused form as posted, or empty after a save. */
function postedDraft(posted: ReturnType<typeof useActionData<typeof action>>): Draft {
  if (!posted || posted.ok) return EMPTY;
  const { values } = posted;
  const delivery = DELIVERIES.find((d) => d === values.delivery) ?? EMPTY.delivery;
  return {
    id: values.id ?? "",
    keywords: values.keywords ?? "",
    store_id: posted.stores,
    category_id: values.category_id ?? "",
    max_price: values.max_price ?? "",
    min_discount: values.min_discount ?? "",
    // A ticked box posts "on"; an unticked one, nothing.
    only_hot: values.only_hot === "on",
    delivery,
    digest_hour: values.digest_hour || EMPTY.digest_hour,
    paused: values.paused === "on",
  };
}

const DELIVERY_LABELS = {
  instant: "Mail at once",
  daily: "Daily digest mail",
  site: "In the site only",
} as const;

const HOURS = Array.from({ length: 24 }, (_, h) => ({
  value: String(h),
  label: `${String(h).padStart(2, "0")}:00 UTC`,
}));

function criteria(draft: Draft) {
  return {
    keywords: draft.keywords,
    store_id: draft.store_id.map(Number),
    category_id: draft.category_id,
    max_price: draft.max_price,
    min_discount: draft.min_discount,
  };
}

function hasCriteria(draft: Draft) {
  return Boolean(
    draft.keywords.trim() ||
    draft.store_id.length ||
    draft.category_id ||
    draft.max_price ||
    draft.min_discount,
  );
}

/** The last 30 days' deals the draft matches, asked for 400 ms after the last change. */
function usePreview(draft: Draft) {
  const [state, setState] = useState<{
    loading: boolean;
    total: number | null;
    deals: DealCardView[];
    error: string | null;
  }>({ loading: false, total: null, deals: [], error: null });
  const key = JSON.stringify(criteria(draft));
  const ready = hasCriteria(draft);
  useEffect(() => {
    if (!ready) {
      setState({ loading: false, total: null, deals: [], error: null });
      return;
    }
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    const timer = setTimeout(async () => {
      const result = await apiCall("/alert_preview", JSON.parse(key) as Record<string, unknown>);
      if (!current) return;
      if (result.ok) {
        setState({
          loading: false,
          total: result.data.total,
          deals: result.data.deal_data,
          error: null,
        });
      } else {
        setState({
          loading: false,
          total: null,
          deals: [],
          error: messageOf(result.data as never, "The preview is not available just now."),
        });
      }
    }, 400);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, ready]);
  return state;
}

function describe(a: AlertView, stores: Map<number, string>, categories: Map<number, string>) {
  const parts: string[] = [];
  if (a.store_id.length) parts.push(a.store_id.map((id) => stores.get(id) ?? "?").join(", "));
  if (a.category_id !== null) parts.push(categories.get(a.category_id) ?? "");
  if (a.max_price !== null) parts.push(`up to $${a.max_price}`);
  if (a.min_discount !== null) parts.push(`${a.min_discount}% off or more`);
  if (a.only_hot) parts.push("only when hot");
  const delivery =
    a.delivery === "daily"
      ? `daily digest at ${String(a.digest_hour).padStart(2, "0")}:00 UTC`
      : DELIVERY_LABELS[a.delivery].toLowerCase();
  parts.push(delivery);
  return parts.filter(Boolean).join(" · ");
}

export default function Alerts() {
  const { alerts, stores, categories, csrfToken, pushSpeed } = useLoaderData<typeof loader>();
  // The action's answer to the editor posted before hydration or without JavaScript.
  const posted = useActionData<typeof action>();
  const revalidator = useRevalidator();
  const [draft, setDraft] = useState<Draft>(() => postedDraft(posted));
  const [errors, setErrors] = useState<Record<string, string>>(posted?.errors ?? {});
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState<{ kind: "success" | "danger"; text: string } | null>(
    posted ? { kind: posted.ok ? "success" : "danger", text: posted.message ?? NOT_SAVED } : null,
  );
  const [rss, setRss] = useState<{ id: number; url: string } | null>(posted?.rss ?? null);
  const [confirm, setConfirm] = useState<AlertView | null>(null);
  const editorRef = useRef<HTMLFormElement>(null);
  const preview = usePreview(draft);
  const storeNames = new Map(stores.map((s) => [s.id, s.title]));
  const categoryNames = new Map(categories.map((c) => [c.id, c.title]));

  // What was typed before hydration is the draft's (docs/decisions/0058, decision 1).
  useTypedBeforeHydration(editorRef, TYPED_FIELDS, (typed) =>
    setDraft((d) => ({ ...d, ...typed })),
  );

  const set = <K extends keyof Draft>(field: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors(({ [field]: _gone, ...rest }) => rest);
  };
  const digestHourField = (hint: string) => (
    <Field
      id="alert-digest-hour"
      name="digest_hour"
      label="Digest time"
      control="select"
      options={HOURS}
      value={draft.digest_hour}
      onChange={(v) => set("digest_hour", v)}
      error={errors.digest_hour}
      hint={hint}
    />
  );

  async function save(event?: FormEvent) {
    event?.preventDefault();
    setBusy("save");
    setStatus(null);
    const result = await apiCall("/alert_save", {
      id: draft.id,
      ...criteria(draft),
      only_hot: draft.only_hot,
      delivery: draft.delivery,
      digest_hour: draft.digest_hour,
      paused: draft.paused,
    });
    setBusy(null);
    if (result.ok) {
      if (result.data.rss_url) setRss({ id: result.data.alert.id, url: result.data.rss_url });
      setDraft(EMPTY);
      setErrors({});
      setStatus({ kind: "success", text: ALERT_MESSAGES.saved });
      await revalidator.revalidate();
    } else {
      const found = (result.data as { errors?: Record<string, string> }).errors ?? {};
      setErrors(found);
      setStatus({ kind: "danger", text: messageOf(result.data, NOT_SAVED) });
      requestAnimationFrame(() =>
        editorRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
    }
  }

  async function act<P extends ApiPathFor<"POST">>(
    key: string,
    url: P,
    body: Record<string, unknown>,
    done?: string,
  ) {
    setBusy(key);
    setStatus(null);
    const result = await apiCall(url, body);
    setBusy(null);
    if (!result.ok) {
      setStatus({
        kind: "danger",
        text: messageOf(result.data, "That did not work. Please try again."),
      });
      return null;
    }
    if (done) setStatus({ kind: "success", text: done });
    await revalidator.revalidate();
    return result.data;
  }

  const togglePause = (a: AlertView) =>
    act(
      `pause-${a.id}`,
      "/alert_save",
      { ...draftOf(a), store_id: a.store_id, paused: !a.paused },
      a.paused ? "Alert resumed." : "Alert paused.",
    );

  async function revoke(a: AlertView) {
    const answer = await act(
      `rss-${a.id}`,
      "/alert_rss_revoke",
      { id: a.id },
      ALERT_MESSAGES.revoked,
    );
    if (answer?.rss_url) setRss({ id: a.id, url: answer.rss_url });
  }

  return (
    <div className="container alerts-page">
      <div className="alerts-head">
        <h1 className="page-title">Alerts</h1>
      </div>
      <p>
        Tell us what you are looking for and we will let you know when a matching deal is posted.
        Plurals and small typos are understood, as in search.
      </p>
      {pushSpeed.seconds !== null && (
        <p className="alerts-speed">
          {`Instant alerts usually arrive within ${pushSpeed.seconds} seconds of the deal going ` +
            "public (95 in 100 push notifications of the last 30 days)."}
        </p>
      )}
      <div role="status" aria-live="polite">
        {status && <p className={`alert alert-${status.kind}`}>{status.text}</p>}
      </div>
      <div className="alerts-layout">
        <section aria-labelledby="alerts-yours">
          <h2 id="alerts-yours">Your alerts ({alerts.length})</h2>
          {alerts.length === 0 ? (
            <p className="card alert-item">You have no alerts yet. Create one with the form.</p>
          ) : (
            <ul className="alerts-list">
              {alerts.map((a) => (
                <li key={a.id} className="card alert-item">
                  <h3>
                    {a.keywords || "Any deal"}
                    {a.paused && " (paused)"}
                  </h3>
                  <p>{describe(a, storeNames, categoryNames)}</p>
                  <div className="alert-actions">
                    <button
                      type="button"
                      className="btn btn-outline"
                      onClick={() => {
                        setDraft(draftOf(a));
                        setErrors({});
                        editorRef.current?.querySelector<HTMLElement>("input")?.focus();
                      }}
                    >
                      Edit<span className="visually-hidden"> alert {a.keywords}</span>
                    </button>
                    <button
                      type="button"
                      className="btn btn-outline"
                      disabled={busy !== null}
                      aria-busy={busy === `pause-${a.id}` || undefined}
                      onClick={() => void togglePause(a)}
                    >
                      {a.paused ? "Resume" : "Pause"}
                      <span className="visually-hidden"> alert {a.keywords}</span>
                    </button>
                    <button
                      type="button"
                      className="btn btn-outline"
                      disabled={busy !== null}
                      aria-busy={busy === `rss-${a.id}` || undefined}
                      onClick={() => void revoke(a)}
                    >
                      New RSS link<span className="visually-hidden"> for alert {a.keywords}</span>
                    </button>
                    <button
                      type="button"
                      className="btn btn-outline"
                      disabled={busy !== null}
                      onClick={() => setConfirm(a)}
                    >
                      Delete<span className="visually-hidden"> alert {a.keywords}</span>
                    </button>
                  </div>
                  {rss?.id === a.id && <RssLink url={rss.url} />}
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="alert-editor-title">
          {/* Hydrated, save() sends it by its JSON call and the post does not happen (record 0079). */}
          <Form
            ref={editorRef}
            method="post"
            className="card alert-editor"
            onSubmit={(e) => void save(e)}
            noValidate
            aria-busy={busy === "save" || undefined}
          >
            <CsrfField token={csrfToken} />
            <input type="hidden" name="id" value={draft.id} />
            <h2 id="alert-editor-title">{draft.id ? "Edit alert" : "New alert"}</h2>
            <Field
              id="alert-keywords"
              name="keywords"
              label="Keywords"
              value={draft.keywords}
              onChange={(v) => set("keywords", v)}
              error={errors.keywords}
              hint="Every word must match, e.g. “crayons 64 pack”. Leave empty to use filters only."
              maxLength={MAX_KEYWORDS_LENGTH}
              mark="optional"
            />
            <div className="form-field">
              <label htmlFor="alert-stores">
                Stores <span className="optional">(optional)</span>
              </label>
              <select
                id="alert-stores"
                name="store_id"
                multiple
                value={draft.store_id}
                aria-describedby={`alert-stores-hint${errors.store_id ? " alert-stores-error" : ""}`}
                aria-invalid={errors.store_id ? true : undefined}
                onChange={(e) =>
                  set(
                    "store_id",
                    [...e.target.selectedOptions].map((o) => o.value),
                  )
                }
              >
                {stores.map((s) => (
                  <option key={s.id} value={String(s.id)}>
                    {s.title}
                  </option>
                ))}
              </select>
              <p id="alert-stores-hint" className="field-hint">
                None chosen: any store. Hold Ctrl (⌘ on a Mac) or Shift to choose several.
              </p>
              {errors.store_id && (
                <p id="alert-stores-error" className="field-error">
                  {errors.store_id}
                </p>
              )}
            </div>
            <Field
              id="alert-category"
              name="category_id"
              label="Category"
              control="select"
              placeholder="Any category"
              options={categories.map((c) => ({ value: String(c.id), label: c.title }))}
              value={draft.category_id}
              onChange={(v) => set("category_id", v)}
              error={errors.category_id}
              mark="optional"
            />
            <div className="form-row">
              <Field
                id="alert-max-price"
                name="max_price"
                label="Maximum price ($)"
                type="number"
                min="0"
                step="0.01"
                inputMode="decimal"
                value={draft.max_price}
                onChange={(v) => set("max_price", v)}
                error={errors.max_price}
                mark="optional"
              />
              <Field
                id="alert-min-discount"
                name="min_discount"
                label="Minimum discount (%)"
                type="number"
                min="0"
                max="100"
                step="1"
                inputMode="numeric"
                value={draft.min_discount}
                onChange={(v) => set("min_discount", v)}
                error={errors.min_discount}
                mark="optional"
              />
            </div>
            <div className="alert-check">
              <input
                id="alert-only-hot"
                name="only_hot"
                type="checkbox"
                checked={draft.only_hot}
                onChange={(e) => set("only_hot", e.target.checked)}
              />
              <label htmlFor="alert-only-hot">Only when the deal becomes hot (100°)</label>
            </div>
            <div className="form-row">
              <Field
                id="alert-delivery"
                name="delivery"
                label="How to tell you"
                control="select"
                options={(["instant", "daily", "site"] as const).map((d) => ({
                  value: d,
                  label: DELIVERY_LABELS[d],
                }))}
                value={draft.delivery}
                onChange={(v) => set("delivery", v as Draft["delivery"])}
                error={errors.delivery}
                hint="Every match also shows in your notifications."
              />
              {draft.delivery === "daily" ? (
                digestHourField("Times are in UTC (Coordinated Universal Time).")
              ) : (
                // Without JavaScript, choosing the daily digest cannot reveal its time, so the
                // time is offered at once (a browser with scripts ignores <noscript>).
                <noscript>
                  {digestHourField(
                    "For the daily digest only. Times are in UTC (Coordinated Universal Time).",
                  )}
                </noscript>
              )}
            </div>
            {draft.delivery === "instant" && (
              <PushToggle
                heading="h3"
                context="Instant alerts also reach your devices where push is on, as soon as a matching deal is posted."
              />
            )}
            {draft.id && (
              <div className="alert-check">
                <input
                  id="alert-paused"
                  name="paused"
                  type="checkbox"
                  checked={draft.paused}
                  onChange={(e) => set("paused", e.target.checked)}
                />
                <label htmlFor="alert-paused">Paused</label>
              </div>
            )}
            {errors.id && <p className="alert alert-danger">{errors.id}</p>}
            <div className="alert-actions">
              <button
                type="submit"
                className="btn btn-primary"
                disabled={busy !== null}
                aria-busy={busy === "save" || undefined}
              >
                {busy === "save" ? "Saving…" : draft.id ? "Save changes" : "Create alert"}
              </button>
              {draft.id && (
                <button
                  type="button"
                  className="btn btn-outline"
                  onClick={() => {
                    setDraft(EMPTY);
                    setErrors({});
                  }}
                >
                  Cancel
                </button>
              )}
            </div>
          </Form>
        </section>
      </div>

      <section className="alert-preview" aria-labelledby="alert-preview-title">
        <h2 id="alert-preview-title">Preview: deals of the last 30 days</h2>
        <p role="status" aria-live="polite">
          {!hasCriteria(draft)
            ? "Type keywords or choose a filter to see what this alert would have found."
            : preview.loading
              ? "Looking…"
              : preview.error
                ? preview.error
                : preview.total === 0
                  ? "No deal of the last 30 days matches yet."
                  : preview.total === null
                    ? ""
                    : `${preview.total} deal${preview.total === 1 ? "" : "s"} matched${
                        preview.total > preview.deals.length
                          ? `; the newest ${preview.deals.length} are shown`
                          : ""
                      }.`}
        </p>
        {preview.deals.length > 0 && (
          <DealGrid deals={preview.deals} headingLevel={3} layoutToggle={false} />
        )}
      </section>

      <ConfirmDialog
        open={confirm !== null}
        title="Delete this alert?"
        confirmLabel="Delete"
        busy={busy === "delete"}
        onCancel={() => setConfirm(null)}
        onConfirm={async () => {
          const target = confirm;
          if (!target) return;
          await act("delete", "/alert_delete", { id: target.id }, ALERT_MESSAGES.deleted);
          setConfirm(null);
          if (draft.id === String(target.id)) setDraft(EMPTY);
        }}
      >
        <p>“{confirm?.keywords || "Any deal"}” will stop and its RSS link will no longer work.</p>
      </ConfirmDialog>
    </div>
  );
}

function RssLink({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="alert-rss">
      <label htmlFor="alert-rss-url">Private RSS feed (keep it to yourself)</label>
      <input id="alert-rss-url" className="form-control" readOnly value={url} />
      <button
        type="button"
        className="btn btn-outline"
        onClick={() => {
          void navigator.clipboard?.writeText(url).then(() => setCopied(true));
        }}
      >
        {copied ? "Copied" : "Copy link"}
      </button>
    </div>
  );
}
