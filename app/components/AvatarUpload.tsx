import { useEffect, useId, useRef, useState } from "react";
import { MAX_UPLOAD_BYTES } from "../../core/constants.ts";
import { IMAGE_MESSAGES } from "../../core/posts/submissions/schema.ts";
import { Avatar } from "./Avatar.tsx";

interface AvatarUploadProps {
  name: string;
  /** The avatar now on the profile ("" for none). */
  currentImage: string;
  file: File | null;
  onFileChange: (file: File | null) => void;
  /** The server's message about the image, if it refused it. */
  serverError?: string;
  /** Upload progress 0–100 while the form is being sent with a file, else null. */
  progress: number | null;
}

/**
 * The profile picture field: choose an image, see it at once (a local object URL, nothing sent
 * yet), and watch the upload's progress when the form is saved. The server checks the bytes again.
 */
export function AvatarUpload({
  name,
  currentImage,
  file,
  onFileChange,
  serverError,
  progress,
}: AvatarUploadProps) {
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [localError, setLocalError] = useState("");

  useEffect(() => {
    if (!file) {
      setPreview(null);
      if (input.current) input.current.value = "";
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  function choose(chosen: File | undefined) {
    setLocalError("");
    if (!chosen) return onFileChange(null);
    if (!chosen.type.startsWith("image/")) {
      setLocalError(IMAGE_MESSAGES.notImage);
      return onFileChange(null);
    }
    if (chosen.size > MAX_UPLOAD_BYTES) {
      setLocalError(IMAGE_MESSAGES.tooLarge);
      return onFileChange(null);
    }
    onFileChange(chosen);
  }

  const error = localError || serverError || "";
  return (
    <div className="form-field avatar-upload">
      <label htmlFor={inputId}>Profile picture</label>
      <div className="avatar-upload-row">
        {preview ? (
          <img
            className="avatar"
            src={preview}
            alt="Preview of your new profile picture"
            width={96}
            height={96}
          />
        ) : (
          <Avatar name={name} image={currentImage} size={96} />
        )}
        <div className="avatar-upload-controls">
          <input
            ref={input}
            id={inputId}
            type="file"
            name="image"
            accept="image/jpeg,image/png,image/gif,image/webp"
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
            aria-invalid={error ? true : undefined}
            onChange={(event) => choose(event.target.files?.[0])}
          />
          <p id={hintId} className="field-hint">
            JPEG, PNG, GIF or WebP, up to 5 MB.
          </p>
          {file && progress === null && (
            <button type="button" className="btn btn-link" onClick={() => onFileChange(null)}>
              Keep the current picture
            </button>
          )}
        </div>
      </div>
      {progress !== null && (
        <div className="upload-progress">
          <label htmlFor={`${inputId}-progress`}>Uploading picture… {progress}%</label>
          <progress id={`${inputId}-progress`} max={100} value={progress} />
        </div>
      )}
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
