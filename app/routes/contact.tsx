import { useActionData, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { ContactBody, contactFailureMessage, contactProblem } from "../../core/contact/schema.ts";
import { CONTACT_CATEGORIES, DELAYS_MS } from "../../core/constants.ts";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { FeaturedStoresCarousel } from "../components/FeaturedStoresCarousel.tsx";
import { Field, FormAlert, KitForm, SubmitButton } from "../components/Form.tsx";
import { apiCall } from "../lib/api.ts";
import { messageOf, useApiForm } from "../lib/api-form.ts";
import { formAction } from "../lib/form-action.server.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/contact";
// Breadcrumbs are styled with the listing pages.
import "../styles/contact.css";

export async function loader({ context }: Route.LoaderArgs) {
  const { services, csrfToken } = context.get(requestContext);
  return { featuredStores: await services.cms.featuredStores(), csrfToken: csrfToken() };
}

/** The form posted to the page: the same check and service as `POST /api/contact_us`. */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, user } = context.get(requestContext);
  return formAction(
    request,
    ContactBody,
    async (input) => {
      const settings = await services.settings.get();
      return (await services.contact.submit(input, user, settings.websiteName)).message;
    },
    { validationMessage: contactFailureMessage },
  );
}

/** The page carries this visitor's XSRF token: never a shared cache's copy. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

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

const CATEGORY_OPTIONS = CONTACT_CATEGORIES.map((value) => ({
  value,
  label: CATEGORY_LABELS[value],
}));

const EMPTY = {
  name: "",
  category: "inquiry",
  subject: "",
  email: "",
  mobile: "",
  website: "",
  message: "",
};

/** The spec: a failure shows for 3 s; a success shows, then the form resets after 3 s. */
function ContactForm({ csrfToken }: { csrfToken: string }) {
  const posted = useActionData<typeof action>();
  const form = useApiForm(
    ContactBody,
    (values) => apiCall("/contact_us", values),
    (result, form) => {
      form.show({ text: messageOf(result.data, ""), tone: "success" });
      form.later(() => form.reset(), DELAYS_MS.contactReset);
    },
    {
      initial: EMPTY,
      posted,
      idPrefix: "contact",
      // 'All fields are required.' when a required field is empty, else the first field's message.
      invalidMessage: (_errors, values) => contactProblem(values)?.message ?? "",
      failureMessage: (result) => messageOf(result.data, "Sorry, your message could not be sent."),
    },
  );

  return (
    <KitForm
      form={form}
      csrfToken={csrfToken}
      className="form contact-form card"
      aria-describedby="contact-intro"
    >
      <p id="contact-intro" className="contact-intro">
        Fields marked * are required.
      </p>
      <FormAlert message={form.message} className="contact-status" />
      <Field {...form.bind("name")} label="Name" required autoComplete="name" />
      <Field
        {...form.bind("category")}
        label="Category"
        control="select"
        options={CATEGORY_OPTIONS}
      />
      <Field {...form.bind("subject")} label="Subject" required />
      <Field
        {...form.bind("email")}
        label="Email"
        type="email"
        required
        autoComplete="email"
        inputMode="email"
      />
      <Field
        {...form.bind("mobile")}
        label="Mobile"
        type="tel"
        required
        autoComplete="tel"
        inputMode="tel"
      />
      <Field
        {...form.bind("website")}
        label="Website"
        type="url"
        mark="optional"
        autoComplete="url"
        inputMode="url"
      />
      <Field
        {...form.bind("message")}
        label="Message"
        control="textarea"
        mark="optional"
        maxLength={5000}
      />
      <SubmitButton busy={form.busy}>SUBMIT</SubmitButton>
    </KitForm>
  );
}

export default function ContactPage() {
  const { featuredStores, csrfToken } = useLoaderData<typeof loader>();
  return (
    <div className="container contact-page">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Contact Us" }]} />
      <h1 className="page-title">Contact Us</h1>
      <div className="contact-layout">
        <ContactForm csrfToken={csrfToken} />
        <FeaturedStoresCarousel stores={featuredStores} />
      </div>
    </div>
  );
}
