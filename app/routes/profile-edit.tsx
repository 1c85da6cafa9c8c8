import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, redirect, useLoaderData, useRevalidator } from "react-router";
import { requestContext } from "#app-context";
import { DELAYS_MS } from "../../core/constants.ts";
import { fieldErrors } from "../../core/validation.ts";
import type { UserProfile } from "../../core/profiles/presenter.ts";
import { ProfileUpdateSchema, profileUpdateMessage } from "../../core/profiles/schema.ts";
import { AvatarUpload } from "../components/AvatarUpload.tsx";
import { ChangePasswordForm } from "../components/ChangePasswordForm.tsx";
import { pageMeta } from "../lib/meta.ts";
import { uploadWithProgress } from "../lib/upload.ts";
import type { Route } from "./+types/profile-edit";
import "../styles/profile.css";

export async function loader({ context }: Route.LoaderArgs) {
  const { services, user } = context.get(requestContext);
  if (!user) throw redirect("/login");
  return { profile: await services.profiles.ownProfile(user, { user_id: user.id }) };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Edit Profile", path: "/user/profile-edit", noindex: true });

type Field = "name" | "email" | "mobile" | "dob" | "gender" | "website" | "address" | "brief";
type Values = Record<Field, string>;

function valuesOf(profile: UserProfile): Values {
  return {
    name: profile.user_name,
    email: profile.user_email ?? "",
    mobile: profile.user_mobile ?? "",
    dob: profile.user_dob,
    gender: profile.user_gender,
    website: profile.user_website,
    address: profile.user_address ?? "",
    brief: profile.user_biography,
  };
}

const FIELD_ORDER: Field[] = ["name", "mobile", "dob", "gender", "website", "address", "brief"];

interface UpdateAnswer {
  message?: string;
  errors?: Record<string, string>;
  data?: UserProfile;
}

export default function ProfileEdit() {
  const { profile } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const [values, setValues] = useState<Values>(() => valuesOf(profile));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<{ text: string; ok: boolean } | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (!banner) return;
    const timer = setTimeout(() => setBanner(null), DELAYS_MS.feedback);
    return () => clearTimeout(timer);
  }, [banner]);

  function change(field: Field, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
  }

  function focusFirstError(found: Record<string, string>) {
    const first = FIELD_ORDER.find((f) => found[f]) ?? (found.image ? "image" : undefined);
    if (first) form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = { ...values, user_id: String(profile.user_id) };
    const found = fieldErrors(ProfileUpdateSchema, input);
    if (found) {
      setErrors(found);
      setBanner({ text: profileUpdateMessage(found), ok: false });
      focusFirstError(found);
      return;
    }
    setSaving(true);
    setBanner(null);
    const body = new FormData();
    for (const [name, value] of Object.entries(input)) body.append(name, value);
    if (file) {
      body.append("image", file);
      setProgress(0);
    }
    const result = await uploadWithProgress<UpdateAnswer>("/profile_update", body, (percent) => {
      if (file) setProgress(percent);
    });
    setProgress(null);
    setSaving(false);
    if (result.ok && result.data.data) {
      setValues(valuesOf(result.data.data));
      setErrors({});
      setFile(null);
      setBanner({ text: result.data.message ?? "Your profile has been updated", ok: true });
      // The avatar and name also show in the navigation bar: load the page's data again.
      revalidator.revalidate();
    } else {
      const serverErrors = result.data.errors ?? {};
      setErrors(serverErrors);
      setBanner({
        text: result.data.message || "Sorry, your profile could not be saved. Please try again.",
        ok: false,
      });
      focusFirstError(serverErrors);
    }
  }

  const describedBy = (field: Field) => (errors[field] ? `${field}-error` : undefined);
  const errorOf = (field: Field) =>
    errors[field] ? (
      <p id={`${field}-error`} className="field-error">
        {errors[field]}
      </p>
    ) : null;

  return (
    <div className="container profile-edit">
      <h1 className="page-title">Edit Profile</h1>
      <div className="card">
        <form ref={form} className="form profile-form" onSubmit={submit} noValidate>
          <AvatarUpload
            name={values.name}
            currentImage={profile.user_image}
            file={file}
            onFileChange={(chosen) => {
              setFile(chosen);
              if (errors.image) setErrors(({ image: _, ...rest }) => rest);
            }}
            serverError={errors.image}
            progress={progress}
          />

          <div className="form-field">
            <label htmlFor="name">Name *</label>
            <input
              id="name"
              name="name"
              autoComplete="name"
              required
              value={values.name}
              onChange={(e) => change("name", e.target.value)}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={describedBy("name")}
            />
            {errorOf("name")}
          </div>

          <div className="form-field">
            <label htmlFor="email">Email *</label>
            <input
              id="email"
              name="email"
              type="email"
              value={values.email}
              disabled
              aria-describedby="email-hint"
            />
            <p id="email-hint" className="field-hint">
              Your email address cannot be changed here.
            </p>
          </div>

          <div className="form-field">
            <label htmlFor="mobile">Mobile *</label>
            <input
              id="mobile"
              name="mobile"
              type="tel"
              inputMode="numeric"
              autoComplete="tel"
              required
              value={values.mobile}
              onChange={(e) => change("mobile", e.target.value)}
              aria-invalid={errors.mobile ? true : undefined}
              aria-describedby={describedBy("mobile")}
            />
            {errorOf("mobile")}
          </div>

          <div className="form-row">
            <div className="form-field">
              <label htmlFor="dob">Date of birth</label>
              <input
                id="dob"
                name="dob"
                type="date"
                autoComplete="bday"
                max={new Date().toISOString().slice(0, 10)}
                value={values.dob}
                onChange={(e) => change("dob", e.target.value)}
                aria-invalid={errors.dob ? true : undefined}
                aria-describedby={describedBy("dob")}
              />
              {errorOf("dob")}
            </div>
            <div className="form-field">
              <label htmlFor="gender">Gender</label>
              <select
                id="gender"
                name="gender"
                value={values.gender}
                onChange={(e) => change("gender", e.target.value)}
                aria-invalid={errors.gender ? true : undefined}
                aria-describedby={describedBy("gender")}
              >
                <option value="">Prefer not to say</option>
                <option value="male">Male</option>
                <option value="female">Female</option>
              </select>
              {errorOf("gender")}
            </div>
          </div>

          <div className="form-field">
            <label htmlFor="website">Website</label>
            <input
              id="website"
              name="website"
              type="url"
              inputMode="url"
              autoComplete="url"
              placeholder="https://"
              value={values.website}
              onChange={(e) => change("website", e.target.value)}
              aria-invalid={errors.website ? true : undefined}
              aria-describedby={describedBy("website")}
            />
            {errorOf("website")}
          </div>

          <div className="form-field">
            <label htmlFor="address">Address</label>
            <input
              id="address"
              name="address"
              autoComplete="street-address"
              value={values.address}
              onChange={(e) => change("address", e.target.value)}
              aria-invalid={errors.address ? true : undefined}
              aria-describedby={describedBy("address")}
            />
            {errorOf("address")}
          </div>

          <div className="form-field">
            <label htmlFor="brief">About me</label>
            <textarea
              id="brief"
              name="brief"
              rows={5}
              value={values.brief}
              onChange={(e) => change("brief", e.target.value)}
              aria-invalid={errors.brief ? true : undefined}
              aria-describedby={describedBy("brief")}
            />
            {errorOf("brief")}
          </div>

          <div aria-live="polite" className="profile-form-banner">
            {banner && (
              <p className={banner.ok ? "alert alert-success" : "alert alert-danger"}>
                {banner.text}
              </p>
            )}
          </div>

          <div className="profile-form-actions">
            <button type="submit" className="btn btn-primary" disabled={saving}>
              {saving ? "Loading…" : "Update Profile"}
            </button>
            <Link to="/user/profile" className="btn btn-outline">
              Back to My Account
            </Link>
          </div>
        </form>
      </div>

      <section className="card profile-password" aria-labelledby="password-toggle">
        <button
          id="password-toggle"
          type="button"
          className="btn btn-link"
          aria-expanded={passwordOpen}
          aria-controls="change-password"
          onClick={() => setPasswordOpen((open) => !open)}
        >
          Want to change your password?
        </button>
        <div id="change-password" hidden={!passwordOpen}>
          {passwordOpen && <ChangePasswordForm userId={profile.user_id} />}
        </div>
      </section>
    </div>
  );
}
