import { useEffect, useState } from "react";
import { MAX_UPLOAD_BYTES } from "../../core/constants.ts";
import { isMediaUrl } from "../../core/media/media-path.ts";
import { IMAGE_ACCEPT, imageFileError } from "../../core/posts/submissions/schema.ts";

interface ImageInputProps {
  id: string;
  /** The file input's name, for a form that posts without JavaScript (docs/decisions/0079). */
  name?: string;
  file: File | null;
  /** The chosen file (null when cleared) and the browser's own check of it ("" when fine). */
  onFileChange: (file: File | null, error: string) => void;
  fileError?: string;
  /** Offer "or an image link" too (deals); omit for a file only (discussions). */
  link?: { name?: string; value: string; onChange: (value: string) => void; error?: string };
  /** Upload progress in percent while the form is being sent with a file; null otherwise. */
  progress: number | null;
  /** Changing it empties the file input (after a successful submission). */
  resetKey: number;
}

/** An image by file upload (with preview and upload progress) or, for deals, by image link. */
export function ImageInput({
  id,
  name,
  file,
  onFileChange,
  fileError,
  link,
  progress,
  resetKey,
}: ImageInputProps) {
  const [preview, setPreview] = useState("");
  const [inputKey, setInputKey] = useState(0);
  const fileErrorId = `${id}-error`;
  const linkId = `${id}-link`;
  const linkErrorId = `${linkId}-error`;

  useEffect(() => {
    if (!file) {
      setPreview("");
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  // An outside link, or the site's own copy of the picture a pasted deal link's page showed
  // (app/lib/link-preview.ts).
  const linkValue = link?.value.trim() ?? "";
  const linkPreview =
    !file && (/^https:\/\/\S+$/.test(linkValue) || isMediaUrl(linkValue)) ? linkValue : "";

  return (
    <fieldset className="image-input">
      <legend>Image</legend>
      <div className="form-field">
        <label htmlFor={id}>Upload an image (JPEG, PNG, GIF or WebP, up to 5 MB)</label>
        <input
          key={`${resetKey}-${inputKey}`}
          id={id}
          name={name}
          type="file"
          accept={IMAGE_ACCEPT}
          aria-invalid={fileError ? true : undefined}
          aria-describedby={fileErrorId}
          onChange={(event) => {
            const chosen = event.target.files?.[0] ?? null;
            onFileChange(chosen, chosen ? imageFileError(chosen, MAX_UPLOAD_BYTES) : "");
          }}
        />
        <p id={fileErrorId} className="field-error" aria-live="polite">
          {fileError}
        </p>
      </div>
      {link && (
        <div className="form-field">
          <label htmlFor={linkId}>Or an image link (https://…)</label>
          <input
            id={linkId}
            name={link.name}
            type="url"
            inputMode="url"
            placeholder="https://"
            value={link.value}
            disabled={Boolean(file)}
            onChange={(event) => link.onChange(event.target.value)}
            aria-invalid={link.error ? true : undefined}
            aria-describedby={linkErrorId}
          />
          <p id={linkErrorId} className="field-error" aria-live="polite">
            {link.error}
          </p>
        </div>
      )}
      {(preview || linkPreview) && (
        <div className="image-preview">
          <img src={preview || linkPreview} alt="Preview of the chosen image" />
          {file && (
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => {
                setInputKey((key) => key + 1);
                onFileChange(null, "");
              }}
            >
              Remove image
            </button>
          )}
        </div>
      )}
      {progress !== null && (
        <div className="upload-progress">
          <label htmlFor={`${id}-progress`}>Uploading image: {progress}%</label>
          <progress id={`${id}-progress`} max={100} value={progress} />
        </div>
      )}
    </fieldset>
  );
}
