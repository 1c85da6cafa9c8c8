import { useState } from "react";
import {
  CategoryCreateBody,
  StoreCreateBody,
  type CatalogKind,
} from "../../../core/catalog/console-schema.ts";
import { useApiForm, type ApiAnswer } from "../../lib/api-form.ts";
import { usePostedConsoleForm } from "../../lib/console-form.ts";
import { useUpload } from "../../lib/upload.ts";
import { Field, FormAlert, SubmitButton } from "../Form.tsx";
import { ImageInput } from "../ImageInput.tsx";
import { ConsoleKitForm } from "./ConsoleKitForm.tsx";
import { useTitleAndSlug } from "./title-slug.ts";

/** The item a form edits (none: a new one). */
export interface CatalogFormItem {
  id: number;
  title: string;
  slug: string;
  description: string;
  image_url: string;
  link?: string;
  affiliate_template?: string;
  old_slugs: string[];
}

interface Values extends Record<string, string> {
  title: string;
  slug: string;
  description: string;
  link: string;
  affiliate_template: string;
}

const NOUN = { store: "store", category: "category" } as const;
const PATH = { store: "/admin/stores", category: "/admin/categories" } as const;
const PUBLIC = { store: "/store", category: "/category" } as const;

/**
 * Creates or edits a store or category: title, slug (made from the title as it is typed for a new
 * one, editable), description, the store's link, and its picture (the byte-checked upload, with
 * progress). The server's field messages (a slug in use, a file that is not an image) show beside
 * their fields. Before hydration or without JavaScript it posts to the page as a multipart form.
 */
export function CatalogForm({
  kind,
  item,
  onSaved,
  onCancel,
}: {
  kind: CatalogKind;
  item: CatalogFormItem | null;
  onSaved: (message: string) => void;
  onCancel: () => void;
}) {
  const upload = useUpload();
  const [image, setImage] = useState<File | null>(null);
  const [removeImage, setRemoveImage] = useState(false);
  // A new item's slug follows its title until the slug is typed in.
  const idPrefix = `${kind}-form`;
  const intent = item ? "update" : "create";
  const posted = usePostedConsoleForm(intent);

  const form = useApiForm<Values, ApiAnswer>(
    kind === "store" ? StoreCreateBody : CategoryCreateBody,
    (values) => {
      const body = new FormData();
      body.append("title", values.title);
      body.append("slug", values.slug);
      body.append("description", values.description);
      if (kind === "store") {
        body.append("link", values.link);
        body.append("affiliate_template", values.affiliate_template);
      }
      if (item) {
        body.append("id", String(item.id));
        body.append("remove_image", removeImage ? "true" : "");
      }
      if (image) body.append("image", image);
      return upload.send<ApiAnswer>(
        `${PATH[kind]}/${item ? "update" : "create"}`,
        body,
        Boolean(image),
      );
    },
    (result) => {
      onSaved(typeof result.data.message === "string" ? result.data.message : "Saved.");
    },
    {
      initial: {
        title: item?.title ?? "",
        slug: item?.slug ?? "",
        description: item?.description ?? "",
        link: item?.link ?? "",
        affiliate_template: item?.affiliate_template ?? "",
      },
      posted,
      idPrefix,
      messageMs: 8000,
      invalidMessage: () => "Please correct the fields marked below.",
    },
  );

  const { title, slug } = useTitleAndSlug(form, item !== null);
  const heading = item ? `Edit ${NOUN[kind]} “${item.title}”` : `New ${NOUN[kind]}`;

  return (
    <section className="console-section" aria-labelledby={`${idPrefix}-heading`}>
      <h2 id={`${idPrefix}-heading`}>{heading}</h2>
      <ConsoleKitForm
        form={form}
        intent={intent}
        hidden={item ? { id: item.id } : {}}
        posted={posted}
        encType="multipart/form-data"
        className="console-form"
      >
        <FormAlert message={form.message} />
        <Field {...title} label="Title" required maxLength={120} />
        <Field
          {...slug}
          label="Slug"
          mark="optional"
          maxLength={80}
          hint={
            item
              ? `The address is ${PUBLIC[kind]}/${slug.value || "…"}. A changed slug keeps the old address working (301).`
              : `The address will be ${PUBLIC[kind]}/${slug.value || "…"}. Left empty, it is made from the title.`
          }
        />
        {item && item.old_slugs.length > 0 && (
          <p className="field-hint">Old addresses that lead here: {item.old_slugs.join(", ")}</p>
        )}
        {kind === "store" && (
          <Field
            {...form.bind("link")}
            label="Store link"
            mark="optional"
            type="url"
            inputMode="url"
            maxLength={500}
            placeholder="https://"
            hint="Where Visit Store leads."
          />
        )}
        {kind === "store" && (
          <Field
            {...form.bind("affiliate_template")}
            label="Affiliate template"
            mark="optional"
            maxLength={500}
            placeholder="https://partner.example/?u={url}"
            hint="When this store pays for clicks: an http(s) address with {url}, which GRAB DEAL fills with the deal's link (URL-encoded). Its deals are then marked as affiliate links. Leave empty otherwise."
          />
        )}
        <Field
          {...form.bind("description")}
          label="Description"
          mark="optional"
          control="textarea"
          rows={4}
          maxLength={2000}
        />
        {item?.image_url && !image && (
          <div className="console-current-image">
            <img src={item.image_url} alt={`Current picture of ${item.title}`} />
            <label>
              <input
                type="checkbox"
                name="remove_image"
                value="true"
                checked={removeImage}
                onChange={(event) => setRemoveImage(event.target.checked)}
              />{" "}
              Remove this picture
            </label>
          </div>
        )}
        <ImageInput
          id={`${idPrefix}-image`}
          name="image"
          file={image}
          onFileChange={(file, error) => {
            setImage(file);
            form.setError("image", error);
          }}
          fileError={form.errors.image}
          progress={upload.progress}
          resetKey={form.resetKey}
        />
        <div className="console-form-actions">
          <SubmitButton busy={form.busy} disabled={Boolean(form.errors.image)}>
            {item ? "Save changes" : `Create ${NOUN[kind]}`}
          </SubmitButton>
          <button type="button" className="btn btn-outline" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </ConsoleKitForm>
    </section>
  );
}
