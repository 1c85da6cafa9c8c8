import { redirect, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { SLUG_PATTERN } from "../../core/console/content-fields.ts";
import { PRIVACY_POLICY_SLUG, cmsPagePath } from "../../core/cms/paths.ts";
import { bodyWithoutTitle } from "../../core/cms/presenter.ts";
import { htmlToText } from "../../core/content/sanitize.ts";
import { orNull } from "../../core/not-found.ts";
import { excerpt } from "../../core/seo/text.ts";
import { notFound } from "../lib/errors.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/cms-page";

/**
 * A page the site owner wrote in the console (/admin/pages), at /page/<slug>. The privacy policy
 * has its own address; an old slug of a renamed page answers 301 to its current address.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const slug = params.slug;
  if (slug === PRIVACY_POLICY_SLUG) throw redirect(cmsPagePath(slug), 301);
  if (!SLUG_PATTERN.test(slug) || slug.length > 80) notFound();
  const page = await orNull(services.cms.page(slug));
  if (!page) {
    const moved = await services.cms.movedPage(slug);
    if (moved) throw redirect(cmsPagePath(moved), 301);
    notFound();
  }
  return {
    title: page.title,
    html: bodyWithoutTitle(page),
    description: excerpt(htmlToText(page.detail)),
    path: cmsPagePath(page.slug),
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData
    ? pageMeta(matches, {
        title: loaderData.title,
        description: loaderData.description,
        path: loaderData.path,
      })
    : pageMeta(matches, { title: "Page Not Found", noindex: true });

export default function CmsPage() {
  const { title, html } = useLoaderData<typeof loader>();
  return (
    <div className="container content-page">
      <article className="card">
        <h1 className="page-title">{title}</h1>
        {/* Written by the site owner, through the site's allow-list (core/content/sanitize.ts). */}
        <div className="rich-text cms-content" dangerouslySetInnerHTML={{ __html: html }} />
      </article>
    </div>
  );
}
