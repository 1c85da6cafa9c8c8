import { useState } from "react";
import { Link, data, redirect, useActionData, useLoaderData, useRevalidator } from "react-router";
import { requestContext } from "#app-context";
import { loginRedirectFor } from "../../core/auth/return-path.ts";
import { ChangePasswordSchema, EmailChangeSchema } from "../../core/people/accounts/schema.ts";
import type { UserProfile } from "../../core/people/profiles/presenter.ts";
import {
  PROFILE_UPDATED,
  ProfileUpdateSchema,
  profileUpdateMessage,
} from "../../core/people/profiles/schema.ts";
import { AvatarUpload } from "../components/AvatarUpload.tsx";
import { ChangeEmailForm } from "../components/ChangeEmailForm.tsx";
import { ChangePasswordForm } from "../components/ChangePasswordForm.tsx";
import { Field, FormAlert, KitForm, SubmitButton } from "../components/Form.tsx";
import { messageOf, useApiForm, type ApiAnswer, type FormOutcome } from "../lib/api-form.ts";
import { formAction, postedFile } from "../lib/form-action.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { useUpload } from "../lib/upload.ts";
import type { Route } from "./+types/profile-edit";
import "../styles/profile.css";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, user, csrfToken } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  const [profile, emailChange] = await Promise.all([
    services.profiles.ownProfile(user, { user_id: user.id }),
    services.accounts.emailChangeForm(user),
  ]);
  return { profile, emailChange, csrfToken: csrfToken() };
}

/** The page's three forms, told apart by their hidden `intent` field. */
type Intent = "profile" | "password" | "email";

function intentOf(posted: FormDataEntryValue | null): Intent {
  return posted === "password" || posted === "email" ? posted : "profile";
}

/**
 * A form posted to the page, for the session's user (never one named in the form): the profile
 * (multipart, with the picture) by `POST /api/profile_update`'s schema and service, whose image
 * check reads the same bytes; the password by `POST /api/change_password`'s, which starts a new
 * session as that call does; the new address by `POST /api/email_change`'s, which mails it a
 * link. The answer carries the form's intent, so only that form shows it. A visitor goes to
 * /login, as the loader sends them.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, user, session } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  const intent = intentOf((await request.clone().formData()).get("intent"));
  const also = { user_id: String(user.id) };
  // Read before formAction reads the body.
  const image = intent === "profile" ? await postedFile(request, "image") : null;
  const answer =
    intent === "email"
      ? await formAction(
          request,
          EmailChangeSchema,
          async (input) => (await services.accounts.requestEmailChange(user, input)).message,
          { also },
        )
      : intent === "password"
        ? await formAction(
            request,
            ChangePasswordSchema,
            async (input) => {
              const { message, token } = await services.accounts.changePassword(user, input, {
                userAgent: request.headers.get("user-agent") ?? "",
              });
              session.start(token);
              return message;
            },
            { also },
          )
        : await formAction(
            request,
            ProfileUpdateSchema,
            async (input) => (await services.profiles.updateProfile(user, input, image)).message,
            { also, validationMessage: profileUpdateMessage },
          );
  return data({ ...answer.data, intent }, answer.init ?? undefined);
}

/** The action's answer if it is `intent`'s form's. */
function usePosted(intent: Intent): FormOutcome | undefined {
  const posted = useActionData<typeof action>();
  return posted?.intent === intent ? posted : undefined;
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Edit Profile", path: "/user/profile-edit", noindex: true });

function valuesOf(profile: UserProfile) {
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

const GENDERS = [
  { value: "male", label: "Male" },
  { value: "female", label: "Female" },
];

interface UpdateAnswer extends ApiAnswer {
  data?: UserProfile;
}

/** POST /api/profile_update as multipart (the picture, with upload progress); the form kit does the rest. */
function useProfileForm(profile: UserProfile) {
  const revalidator = useRevalidator();
  const posted = usePosted("profile");
  const upload = useUpload();
  const [file, setFile] = useState<File | null>(null);
  const form = useApiForm<ReturnType<typeof valuesOf>, UpdateAnswer>(
    ProfileUpdateSchema,
    (values) => {
      const body = new FormData();
      for (const [name, value] of Object.entries({ ...values, user_id: String(profile.user_id) })) {
        body.append(name, value);
      }
      if (file) body.append("image", file);
      return upload.send<UpdateAnswer>("/profile_update", body, Boolean(file));
    },
    (result, form) => {
      if (result.data.data) form.reset(valuesOf(result.data.data));
      setFile(null);
      form.show({ text: messageOf(result.data, PROFILE_UPDATED), tone: "success" });
      // The avatar and name also show in the navigation bar: load the page's data again.
      void revalidator.revalidate();
    },
    {
      initial: valuesOf(profile),
      posted,
      invalidMessage: profileUpdateMessage,
      failureMessage: (result) =>
        messageOf(result.data, "Sorry, your profile could not be saved. Please try again."),
    },
  );
  function chooseFile(chosen: File | null) {
    setFile(chosen);
    form.setError("image", "");
  }
  return { form, file, chooseFile, progress: upload.progress };
}

function ProfileForm({ profile, csrfToken }: { profile: UserProfile; csrfToken: string }) {
  const { form, file, chooseFile, progress } = useProfileForm(profile);
  return (
    <KitForm
      form={form}
      csrfToken={csrfToken}
      encType="multipart/form-data"
      className="form profile-form"
      aria-label="Edit Profile"
    >
      <input type="hidden" name="intent" value="profile" />
      <AvatarUpload
        name={form.values.name}
        currentImage={profile.user_image}
        file={file}
        onFileChange={chooseFile}
        serverError={form.errors.image}
        progress={progress}
      />
      {/* The spec's labels carry their star: "Name *". */}
      <Field {...form.bind("name")} label="Name *" mark="none" required autoComplete="name" />
      <Field
        {...form.bind("email")}
        label="Email *"
        type="email"
        disabled
        hint="To change your email address, use “Change email address” below."
      />
      <Field
        {...form.bind("mobile")}
        label="Mobile *"
        mark="none"
        type="tel"
        inputMode="numeric"
        autoComplete="tel"
        required
      />
      <div className="form-row">
        <Field
          {...form.bind("dob")}
          label="Date of birth"
          type="date"
          autoComplete="bday"
          max={new Date().toISOString().slice(0, 10)}
        />
        <Field
          {...form.bind("gender")}
          label="Gender"
          control="select"
          placeholder="Prefer not to say"
          options={GENDERS}
        />
      </div>
      <Field
        {...form.bind("website")}
        label="Website"
        type="url"
        inputMode="url"
        autoComplete="url"
        placeholder="https://"
      />
      <Field {...form.bind("address")} label="Address" autoComplete="street-address" />
      <Field {...form.bind("brief")} label="About me" control="textarea" rows={5} />
      <FormAlert message={form.message} className="profile-form-banner" />
      <div className="profile-form-actions">
        <SubmitButton busy={form.busy}>Update Profile</SubmitButton>
        <Link to="/user/profile" className="btn btn-outline">
          Back to My Account
        </Link>
      </div>
    </KitForm>
  );
}

/**
 * 'Want to change your password?' opens the change-password form (the spec). A browser without
 * JavaScript cannot open it, so it gets the form at once, in <noscript>, where it posts to the page.
 */
function PasswordSection({ userId, csrfToken }: { userId: number; csrfToken: string }) {
  const [open, setOpen] = useState(false);
  const posted = usePosted("password");
  return (
    <section className="card profile-password" aria-labelledby="password-toggle">
      <button
        id="password-toggle"
        type="button"
        className="btn btn-link"
        aria-expanded={open}
        aria-controls="change-password"
        onClick={() => setOpen((wasOpen) => !wasOpen)}
      >
        Want to change your password?
      </button>
      <div id="change-password" hidden={!open}>
        {open && <ChangePasswordForm userId={userId} csrfToken={csrfToken} />}
      </div>
      <noscript>
        <ChangePasswordForm userId={userId} csrfToken={csrfToken} posted={posted} />
      </noscript>
    </section>
  );
}

/** Change email address: always open, so it works the same without JavaScript. */
function EmailSection({
  hasPassword,
  pendingEmail,
  csrfToken,
}: {
  hasPassword: boolean;
  pendingEmail: string | null;
  csrfToken: string;
}) {
  const posted = usePosted("email");
  return (
    <section className="card profile-email" id="change-email" aria-labelledby="change-email-title">
      <h2 id="change-email-title">Change email address</h2>
      <p>
        We email a link to the new address. Your address changes when you open it; until then, mail
        goes to the current one.
      </p>
      {pendingEmail && (
        <p>
          A link we sent to <strong>{pendingEmail}</strong> is waiting to be opened. Asking again
          sends a new link, and the old one stops working.
        </p>
      )}
      <ChangeEmailForm hasPassword={hasPassword} csrfToken={csrfToken} posted={posted} />
    </section>
  );
}

export default function ProfileEdit() {
  const { profile, emailChange, csrfToken } = useLoaderData<typeof loader>();
  return (
    <div className="container profile-edit">
      <h1 className="page-title">Edit Profile</h1>
      <div className="card">
        <ProfileForm profile={profile} csrfToken={csrfToken} />
      </div>
      <EmailSection
        hasPassword={emailChange.hasPassword}
        pendingEmail={emailChange.pendingEmail}
        csrfToken={csrfToken}
      />
      <PasswordSection userId={profile.user_id} csrfToken={csrfToken} />
    </div>
  );
}
