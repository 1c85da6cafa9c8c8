import { useState, type ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import type { z } from "zod";
import type { FormMessage } from "../../lib/api-form.ts";
import { FormAlert } from "../Form.tsx";
import { ConsoleDeleteButton } from "./ConsoleDeleteButton.tsx";
import { ConsoleMoveButtons } from "./ConsoleMoveButtons.tsx";
import { ConsoleRecordForm, type RecordField } from "./ConsoleRecordForm.tsx";
import { ConsoleTable, type ConsoleColumn } from "./ConsoleTable.tsx";
import { useConsoleUrl } from "./console-url.ts";

export interface OrderedRecordsConsoleProps<Item extends { id: number; position: number }> {
  /** The page's heading. */
  title: string;
  intro: ReactNode;
  /** The admin calls' prefix: `${calls}/create`, `/update`, `/move` and `/delete`. */
  calls: "/admin/social" | "/admin/wishlist";
  items: Item[];
  /** Admins delete; moderators add, edit and reorder. */
  canDelete: boolean;
  /** The shared zod schema the server parses the fields with. */
  schema: z.ZodType;
  fields: RecordField[];
  /** The fields of a new record. */
  blank: Record<string, string>;
  valuesOf: (item: Item) => Record<string, string>;
  /** How buttons and headings name a record: "the YouTube link", "Ann Lee's wishlist". */
  nameOf: (item: Item) => string;
  /** The columns between the position and the actions. */
  columns: ConsoleColumn<Item>[];
  texts: {
    add: string;
    newHeading: string;
    submit: string;
    caption: string;
    empty: string;
  };
}

/**
 * A console page for a short ordered list the site shows as it is (social links, the Teachers
 * Wishlist): add and edit in place (?new=1, ?edit=id), move up and down, and delete (admins).
 */
export function OrderedRecordsConsole<Item extends { id: number; position: number }>(
  props: OrderedRecordsConsoleProps<Item>,
) {
  const { title, intro, calls, items, canDelete, nameOf, texts } = props;
  const { listHref, creating, editing } = useConsoleUrl();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const edited = editing ? items.find((item) => String(item.id) === editing) : undefined;

  function saved(message: string) {
    setNotice({ text: message, tone: "success" });
    void navigate(listHref(), { replace: true, preventScrollReset: true });
  }

  return (
    <>
      <div className="console-heading">
        <h1>{title}</h1>
        {!creating && !edited && (
          <Link to={listHref({ new: "1" })} className="btn btn-primary">
            {texts.add}
          </Link>
        )}
      </div>
      <p className="console-intro">{intro}</p>
      <FormAlert message={notice} />
      {(creating || edited) && (
        <ConsoleRecordForm
          key={edited ? `edit-${edited.id}` : "new"}
          heading={edited ? `Edit ${nameOf(edited)}` : texts.newHeading}
          call={edited ? `${calls}/update` : `${calls}/create`}
          intent={edited ? "update" : "create"}
          schema={props.schema}
          fields={props.fields}
          initial={edited ? props.valuesOf(edited) : props.blank}
          extra={edited ? { id: edited.id } : {}}
          submitLabel={edited ? "Save changes" : texts.submit}
          onSaved={saved}
          onCancel={() => void navigate(listHref(), { preventScrollReset: true })}
        />
      )}
      <ConsoleTable
        caption={texts.caption}
        rows={items}
        rowKey={(item) => item.id}
        empty={texts.empty}
        columns={[
          { header: "#", cell: (item) => item.position },
          ...props.columns,
          {
            header: "Actions",
            actions: true,
            cell: (item) => {
              const index = items.indexOf(item);
              return (
                <>
                  <ConsoleMoveButtons
                    call={`${calls}/move`}
                    body={{ id: item.id }}
                    label={nameOf(item)}
                    first={index === 0}
                    last={index === items.length - 1}
                  />
                  <Link
                    to={listHref({ edit: String(item.id) })}
                    className="btn btn-sm console-btn-plain"
                    aria-label={`Edit ${nameOf(item)}`}
                    preventScrollReset
                  >
                    Edit
                  </Link>
                  {canDelete && (
                    <ConsoleDeleteButton
                      call={`${calls}/delete`}
                      body={{ id: item.id }}
                      what={nameOf(item)}
                      onDone={(message) => setNotice({ text: message, tone: "success" })}
                    />
                  )}
                </>
              );
            },
          },
        ]}
      />
    </>
  );
}
