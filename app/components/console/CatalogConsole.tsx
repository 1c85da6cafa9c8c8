import { useState } from "react";
import { Link, useNavigate } from "react-router";
import type { CatalogConsolePage } from "../../../core/catalog/console-presenter.ts";
import type { CatalogKind } from "../../../core/catalog/console-schema.ts";
import type { FormMessage } from "../../lib/api-form.ts";
import { FormAlert } from "../Form.tsx";
import { Pager } from "../Pager.tsx";
import { CatalogForm, type CatalogFormItem } from "./CatalogForm.tsx";
import { ConsoleDeleteButton } from "./ConsoleDeleteButton.tsx";
import { ConsoleSearchForm } from "./ConsoleSearchForm.tsx";
import { ConsoleTable } from "./ConsoleTable.tsx";
import { useConsoleUrl } from "./console-url.ts";

export interface CatalogConsoleData {
  list: CatalogConsolePage;
  /** Every store or category: where a deleted one's deals may go. */
  choices: { id: number; title: string }[];
  /** The item of `?edit=<id>`, or null. */
  editing: CatalogFormItem | null;
  canDelete: boolean;
}

const TEXT = {
  store: { title: "Stores", noun: "store", plural: "stores", public: "/store" },
  category: { title: "Categories", noun: "category", plural: "categories", public: "/category" },
} as const;

/**
 * /admin/stores and /admin/categories: the searchable, paged list with each item's deals, the
 * create and edit form (`?new=1`, `?edit=<id>` in the URL), and the delete that moves deals first.
 */
export function CatalogConsole({ kind, data }: { kind: CatalogKind; data: CatalogConsoleData }) {
  const text = TEXT[kind];
  const { listHref, creating: creatingParam } = useConsoleUrl();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const creating = creatingParam === "1";
  const { list, editing } = data;

  function saved(message: string) {
    setNotice({ text: message, tone: "success" });
    void navigate(listHref(), { replace: true, preventScrollReset: true });
  }

  const formItem = creating ? null : editing;
  const showForm = creating || editing !== null;

  return (
    <>
      <div className="console-heading">
        <h1>{text.title}</h1>
        {!showForm && (
          <Link to={listHref({ new: "1" })} className="btn btn-primary">
            New {text.noun}
          </Link>
        )}
      </div>
      <FormAlert message={notice} />
      {showForm && (
        <CatalogForm
          key={formItem ? `edit-${formItem.id}` : "new"}
          kind={kind}
          item={formItem}
          onSaved={saved}
          onCancel={() => void navigate(listHref(), { preventScrollReset: true })}
        />
      )}
      <ConsoleSearchForm
        search={list.search}
        label={`Search ${text.plural}`}
        placeholder="Title or slug"
      />
      <p className="console-count">
        {list.total === 1 ? `1 ${text.noun}` : `${list.total} ${text.plural}`}
        {list.search && ` matching “${list.search}”`}
      </p>
      <ConsoleTable
        caption={text.title}
        rows={list.items}
        rowKey={(row) => row.id}
        empty={list.search ? `No ${text.plural} match “${list.search}”.` : `No ${text.plural} yet.`}
        columns={[
          {
            header: "Picture",
            cell: (row) =>
              row.image_url ? (
                <img className="console-thumb" src={row.image_url} alt="" loading="lazy" />
              ) : (
                <span className="console-muted">None</span>
              ),
          },
          {
            header: "Title",
            cell: (row) => (
              <a href={`${text.public}/${row.slug}`} target="_blank" rel="noreferrer">
                {row.title}
              </a>
            ),
          },
          { header: "Slug", cell: (row) => <code>{row.slug}</code> },
          { header: "Deals", cell: (row) => row.deals },
          {
            header: "Actions",
            actions: true,
            cell: (row) => (
              <>
                <Link
                  to={listHref({ edit: String(row.id) })}
                  className="btn btn-sm console-btn-plain"
                  aria-label={`Edit ${row.title}`}
                  preventScrollReset
                >
                  Edit
                </Link>
                {data.canDelete && (
                  <ConsoleDeleteButton
                    call={`/admin/${kind === "store" ? "stores" : "categories"}/delete`}
                    body={{ id: row.id }}
                    what={`the ${text.noun} “${row.title}”`}
                    inUse={row.deals}
                    usedNoun="deal"
                    choices={data.choices.filter((choice) => choice.id !== row.id)}
                    onDone={(message) => setNotice({ text: message, tone: "success" })}
                  />
                )}
              </>
            ),
          },
        ]}
      />
      <Pager
        page={list.page}
        lastPage={list.lastPage}
        label={`${text.title} pages`}
        hrefFor={(page) => listHref({ page: String(page) })}
      />
    </>
  );
}
