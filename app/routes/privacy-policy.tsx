import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { bodyWithoutTitle } from "../../core/cms/presenter.ts";
import { orNull } from "../../core/not-found.ts";
import { notFound } from "../lib/errors.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/privacy-policy";

const SLUG = "privacy-policy";

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const page = (await orNull(services.cms.page(SLUG))) ?? notFound();
  return { title: page.title, html: bodyWithoutTitle(page) };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: loaderData?.title ?? "Privacy Policy",
    description:
      "How we collect, use and protect your personal information, the cookies we use, and the choices you have.",
    path: `/${SLUG}`,
  });

export default function PrivacyPolicyPage() {
  const { title, html } = useLoaderData<typeof loader>();
  return (
    <div className="container content-page">
      <article className="card">
        <h1 className="page-title">{title}</h1>
        {/* Written by the site owner (trusted HTML). */}
        <div className="rich-text cms-content" dangerouslySetInnerHTML={{ __html: html }} />
      </article>
    </div>
  );
}
