import { useId, useRef, useState, type FormEvent } from "react";
import { useLoaderData, useRevalidator } from "react-router";
import { requestContext } from "#app-context";
import { MAX_UPLOAD_BYTES } from "../../../core/constants.ts";
import {
  BlockedDomainBody,
  SETTINGS_LIMITS,
  SettingsBody,
  type SiteImageField,
} from "../../../core/settings/schema.ts";
import { ENDING_LEVELS } from "../../../core/moderation/newcomer-links.ts";
import { IMAGE_ACCEPT, imageFileError } from "../../../core/posts/submissions/schema.ts";
import { ConsoleKitForm } from "../../components/console/ConsoleKitForm.tsx";
import { ConsoleAction } from "../../components/console/ConsoleAction.tsx";
import { ConsoleTable } from "../../components/console/ConsoleTable.tsx";
import { DigestScheduleForm } from "../../components/console/DigestScheduleForm.tsx";
import { DownloadBackup } from "../../components/console/DownloadBackup.tsx";
import { Field, FormAlert, SubmitButton } from "../../components/Form.tsx";
import { apiCall } from "../../lib/api.ts";
import { messageOf, useApiForm } from "../../lib/api-form.ts";
import { usePostedConsoleForm } from "../../lib/console-form.ts";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { formatDate } from "../../lib/format.ts";
import { consoleFormAction } from "../../lib/console-form.server.ts";
import { CONSOLE_FORMS } from "../../lib/console-forms.server.ts";
import { ReputationLevelsForm } from "../../components/console/ReputationLevelsForm.tsx";
import type { Route } from "./+types/settings";

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const admin = requireConsoleUser(ctx, "admin");
  const [editable, digest, { levels }] = await Promise.all([
    ctx.services.settings.editable(admin),
    ctx.services.digest.schedule(admin),
    ctx.services.reputation.levels(admin),
  ]);
  return { ...editable, digest: digest.schedule, levels };
}

/** The page's forms posted without JavaScript (docs/decisions/0079). */
export const action = (args: Route.ActionArgs) => consoleFormAction(args, CONSOLE_FORMS.settings);

export const meta: Route.MetaFunction = () => [
  { title: "Settings · Console" },
  { name: "robots", content: "noindex" },
];

type Settings = Awaited<ReturnType<typeof loader>>["settings"];

/** The form's values: text, as the inputs hold them. */
function formValues(settings: Settings) {
  return {
    website_name: settings.website_name,
    website_keywords: settings.website_keywords,
    website_description: settings.website_description,
    educator_post_unique_id: settings.educator_post_unique_id,
    copyright_text: settings.copyright_text,
    playstore_url: settings.playstore_url,
    app_store_url: settings.app_store_url,
    report_hide_threshold: String(settings.report_hide_threshold),
    hold_new_user_posts: String(settings.hold_new_user_posts),
    hold_new_user_days: String(settings.hold_new_user_days),
    expiry_mark_threshold: String(settings.expiry_mark_threshold),
    newcomer_link_posts: String(settings.newcomer_link_posts),
    newcomer_until_level: settings.newcomer_until_level,
    newcomer_link_cap: String(settings.newcomer_link_cap),
    app_theme_color: settings.app_theme_color,
    app_background_color: settings.app_background_color,
  };
}

/** General settings, footer and moderation: one form, saved together or not at all. */
function SettingsForm({ settings }: { settings: Settings }) {
  const revalidator = useRevalidator();
  const posted = usePostedConsoleForm("settings");
  const form = useApiForm(
    SettingsBody,
    (values) => apiCall("/admin/settings", values),
    async (result, form) => {
      form.show({ text: messageOf(result.data), tone: "success" });
      await revalidator.revalidate();
    },
    { initial: formValues(settings), posted, idPrefix: "settings" },
  );
  const holdId = "settings-hold_new_user_posts";
  return (
    <ConsoleKitForm form={form} intent="settings" className="form" aria-label="Settings">
      <fieldset className="console-section">
        <legend>General</legend>
        <Field
          {...form.bind("website_name")}
          label="Website name"
          required
          maxLength={SETTINGS_LIMITS.websiteName}
        />
        <Field
          {...form.bind("website_keywords")}
          label="Keywords"
          mark="optional"
          hint="Comma-separated, for search engines."
          maxLength={SETTINGS_LIMITS.keywords}
        />
        <Field
          {...form.bind("website_description")}
          label="Description"
          control="textarea"
          rows={3}
          mark="optional"
          hint="The default meta description: what search engines and share previews show for pages without one of their own."
          maxLength={SETTINGS_LIMITS.description}
        />
        <Field
          {...form.bind("educator_post_unique_id")}
          label="Educators post (unique id)"
          mark="optional"
          hint="The educator post the navigation bar's Educators link opens, by its unique id (the part after /educator/ in its address). Empty: the educator forum."
        />
      </fieldset>
      <fieldset className="console-section">
        <legend>Footer</legend>
        <Field
          {...form.bind("copyright_text")}
          label="Copyright text"
          mark="optional"
          hint="The year is added in front of it."
          maxLength={SETTINGS_LIMITS.copyright}
        />
        <Field
          {...form.bind("playstore_url")}
          label="Google Play link"
          type="url"
          inputMode="url"
          mark="optional"
          hint="Empty hides the Google Play badge."
        />
        <Field
          {...form.bind("app_store_url")}
          label="App Store link"
          type="url"
          inputMode="url"
          mark="optional"
          hint="Empty hides the App Store badge."
        />
      </fieldset>
      <fieldset className="console-section">
        <legend>Installable app</legend>
        <Field
          {...form.bind("app_theme_color")}
          label="Theme colour"
          type="color"
          hint="The browser's bar on phones, the installed app's title bar, and the background of its icon on Android home screens."
        />
        <Field
          {...form.bind("app_background_color")}
          label="Background colour"
          type="color"
          hint="What the installed app shows while it opens, around its icon."
        />
      </fieldset>
      <fieldset className="console-section">
        <legend>Moderation</legend>
        <Field
          {...form.bind("report_hide_threshold")}
          label="Reports that hide an item"
          type="number"
          inputMode="numeric"
          min={1}
          max={SETTINGS_LIMITS.threshold}
          step={1}
          hint="When this many different members report a post or comment, it is hidden until a moderator decides."
        />
        <div className="form-field console-check">
          {/* Posted without JavaScript: "false" unless the box, which comes after it, is ticked. */}
          <input type="hidden" name="hold_new_user_posts" value="false" />
          <input
            id={holdId}
            type="checkbox"
            name="hold_new_user_posts"
            value="true"
            checked={form.values.hold_new_user_posts === "true"}
            aria-describedby={`${holdId}-hint`}
            onChange={(event) =>
              form.set("hold_new_user_posts", event.target.checked ? "true" : "false")
            }
          />
          <label htmlFor={holdId}>Hold new members&apos; first post for review</label>
          <p id={`${holdId}-hint`} className="field-hint">
            Only the author sees it (&quot;waiting for review&quot;) until a moderator approves it.
          </p>
        </div>
        <Field
          {...form.bind("hold_new_user_days")}
          label="A member is new for (days)"
          type="number"
          inputMode="numeric"
          min={0}
          max={SETTINGS_LIMITS.holdDays}
          step={1}
        />
        <Field
          {...form.bind("expiry_mark_threshold")}
          label="Members who expire a deal"
          type="number"
          inputMode="numeric"
          min={1}
          max={SETTINGS_LIMITS.expiryMarks}
          step={1}
          hint="When this many different members mark a deal “Expired?”, it is expired. One moderator's mark expires it at once."
        />
      </fieldset>
      <fieldset className="console-section">
        <legend>New members&apos; links</legend>
        <p className="console-note">
          A member is new until they have the number of approved posts below or reach the level
          below. A new member&apos;s post with a link waits for review, and their descriptions and
          comments carry at most the number of links below. The help page states these rules.
        </p>
        <Field
          {...form.bind("newcomer_link_posts")}
          label="Approved posts that end it"
          type="number"
          inputMode="numeric"
          min={0}
          max={SETTINGS_LIMITS.newcomer}
          step={1}
          hint="0: nobody counts as new, so no post is held for its link and no links are capped."
        />
        <Field
          {...form.bind("newcomer_until_level")}
          label="Level that ends it"
          control="select"
          options={ENDING_LEVELS.map((level) => ({ value: level, label: level }))}
        />
        <Field
          {...form.bind("newcomer_link_cap")}
          label="Links in a new member's description or comment"
          type="number"
          inputMode="numeric"
          min={0}
          max={SETTINGS_LIMITS.newcomer}
          step={1}
        />
      </fieldset>
      <FormAlert message={form.message} />
      <SubmitButton busy={form.busy}>Save settings</SubmitButton>
    </ConsoleKitForm>
  );
}

const IMAGE_LABELS: Record<SiteImageField, { title: string; hint: string }> = {
  website_logo: {
    title: "Logo",
    hint: "Shown in the navigation bar (180 × 40 px); without one, the website name is shown.",
  },
  play_store_image: { title: "Google Play badge", hint: "Shown in the footer with its link." },
  app_store_image: { title: "App Store badge", hint: "Shown in the footer with its link." },
};

/**
 * One site image: the current picture, a file to replace it (checked by its bytes), or removal.
 * Without JavaScript it posts to the page as multipart; Remove is the submit button whose value
 * is remove=true.
 */
function SiteImage({ field, url }: { field: SiteImageField; url: string }) {
  const revalidator = useRevalidator();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const posted = usePostedConsoleForm(`image:${field}`);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState("");
  // The page action's refusal of a file posted without JavaScript: shown until a file is chosen,
  // and it does not disable the buttons, so that the form can be posted again.
  const [postedError, setPostedError] = useState(
    posted && !posted.ok
      ? (posted.errors.image ?? posted.errors.field ?? posted.message ?? "")
      : "",
  );
  const [status, setStatus] = useState(posted?.ok ? (posted.message ?? "") : "");
  const [busy, setBusy] = useState<"upload" | "remove" | null>(null);
  const { title, hint } = IMAGE_LABELS[field];

  async function send(remove: boolean) {
    if (!remove && !file) {
      setError("Please choose an image file (JPEG, PNG, GIF or WebP).");
      return;
    }
    const body = new FormData();
    body.append("field", field);
    if (remove) body.append("remove", "true");
    else body.append("image", file!);
    setBusy(remove ? "remove" : "upload");
    setStatus("");
    setPostedError("");
    const result = await apiCall("/admin/settings/image", body);
    setBusy(null);
    if (!result.ok) {
      const answer = result.data as { errors?: Record<string, string> };
      setError(answer.errors?.image ?? answer.errors?.field ?? messageOf(result.data));
      return;
    }
    setError("");
    setFile(null);
    if (input.current) input.current.value = "";
    setStatus(messageOf(result.data));
    await revalidator.revalidate();
  }

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    const submitter = (event?.nativeEvent as SubmitEvent | undefined)?.submitter;
    await send(submitter?.getAttribute("name") === "remove");
  }

  return (
    <ConsoleKitForm
      form={{ ref: formRef, submit }}
      intent={`image:${field}`}
      hidden={{ field }}
      encType="multipart/form-data"
      className="console-image"
      aria-labelledby={`${id}-title`}
    >
      <h3 id={`${id}-title`}>{title}</h3>
      <div className="console-image-preview">
        {url ? <img src={url} alt={`Current ${title.toLowerCase()}`} /> : <span>None</span>}
      </div>
      <div className="form-field">
        <label htmlFor={`${id}-file`}>New {title.toLowerCase()}</label>
        <input
          ref={input}
          id={`${id}-file`}
          name="image"
          type="file"
          accept={IMAGE_ACCEPT}
          aria-invalid={error || postedError ? true : undefined}
          aria-describedby={`${id}-hint ${id}-error`}
          onChange={(event) => {
            const chosen = event.target.files?.[0] ?? null;
            setFile(chosen);
            setError(chosen ? imageFileError(chosen, MAX_UPLOAD_BYTES) : "");
            setPostedError("");
          }}
        />
        <p id={`${id}-hint`} className="field-hint">
          {hint} JPEG, PNG, GIF or WebP, up to 5 MB.
        </p>
        <p id={`${id}-error`} className="field-error" aria-live="polite">
          {error || postedError}
        </p>
      </div>
      <div className="console-image-actions">
        <button
          type="submit"
          className="btn btn-sm console-btn-primary"
          disabled={busy !== null || Boolean(error)}
          aria-busy={busy === "upload" || undefined}
        >
          {busy === "upload" ? "Working…" : `Upload ${title.toLowerCase()}`}
        </button>
        {url && (
          <button
            type="submit"
            name="remove"
            value="true"
            className="btn btn-sm console-btn-plain"
            disabled={busy !== null}
            aria-busy={busy === "remove" || undefined}
          >
            {busy === "remove" ? "Working…" : `Remove ${title.toLowerCase()}`}
          </button>
        )}
      </div>
      <p className="console-note" role="status">
        {status}
      </p>
    </ConsoleKitForm>
  );
}

/** Blocked link domains: the list, and a domain to add. */
function BlockedDomains({
  domains,
}: {
  domains: Awaited<ReturnType<typeof loader>>["blocked_domains"];
}) {
  const revalidator = useRevalidator();
  const posted = usePostedConsoleForm("block-domain");
  const form = useApiForm(
    BlockedDomainBody,
    (values) => apiCall("/admin/blocked_domains/add", values),
    async (result, form) => {
      form.show({ text: messageOf(result.data), tone: "success" });
      form.reset();
      await revalidator.revalidate();
    },
    { initial: { domain: "" }, posted, idPrefix: "blocked" },
  );
  return (
    <section className="console-section" aria-labelledby="blocked-title">
      <h2 id="blocked-title">Blocked link domains</h2>
      <p className="console-note">
        Deals and discussions whose links lead to one of these domains, or to any of its subdomains,
        are refused with a message on the link.
      </p>
      <ConsoleKitForm
        form={form}
        intent="block-domain"
        className="console-toolbar"
        aria-label="Block a domain"
      >
        <Field
          {...form.bind("domain")}
          label="Domain"
          placeholder="example.com"
          inputMode="url"
          hint="A link or a domain; the scheme, path and www. are dropped."
        />
        <SubmitButton busy={form.busy} className="btn btn-primary">
          Block
        </SubmitButton>
      </ConsoleKitForm>
      <FormAlert message={form.message} />
      <ConsoleTable
        caption="Blocked link domains"
        columns={[
          { header: "Domain", cell: (row) => row.domain },
          { header: "Added", cell: (row) => formatDate(row.added_at) },
          { header: "By", cell: (row) => row.added_by || "—" },
          {
            header: "Actions",
            actions: true,
            cell: (row) => (
              <ConsoleAction
                call="/admin/blocked_domains/remove"
                body={{ domain: row.domain }}
                label="Remove"
                confirm={`Allow links to ${row.domain} again?`}
              />
            ),
          },
        ]}
        rows={domains}
        rowKey={(row) => row.domain}
        empty="No domain is blocked."
      />
    </section>
  );
}

export default function ConsoleSettings() {
  const { settings, blocked_domains, digest, levels } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Settings</h1>
      <SettingsForm settings={settings} />
      <section className="console-section" aria-labelledby="images-title">
        <h2 id="images-title">Images</h2>
        <div className="console-images">
          <SiteImage field="website_logo" url={settings.website_logo} />
          <SiteImage field="play_store_image" url={settings.play_store_image} />
          <SiteImage field="app_store_image" url={settings.app_store_image} />
        </div>
      </section>
      <BlockedDomains domains={blocked_domains} />
      <DigestScheduleForm schedule={digest} />
      <ReputationLevelsForm levels={levels} />
      <DownloadBackup />
    </>
  );
}
