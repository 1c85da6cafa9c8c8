import { useCallback, useState } from "react";
import { XSRF_HEADER } from "../../core/constants.ts";
import type { ApiResult } from "./api.ts";
import { xsrfToken } from "./api.ts";

/**
 * POSTs a form with files to the site's JSON API and reports upload progress (0–100), which fetch
 * cannot. Sends the same X-XSRF-TOKEN header as `apiCall`, and never throws: a network failure
 * comes back as status 0 with a message, like `apiCall`.
 */
export function uploadWithProgress<T = Record<string, unknown>>(
  path: string,
  form: FormData,
  onProgress: (percent: number) => void,
): Promise<ApiResult<T>> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open("POST", `/api${path}`);
    request.withCredentials = true;
    request.setRequestHeader("accept", "application/json");
    request.setRequestHeader(XSRF_HEADER, xsrfToken());
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    });
    request.addEventListener("load", () => {
      onProgress(100);
      let data: T;
      try {
        data = JSON.parse(request.responseText) as T;
      } catch {
        data = {} as T;
      }
      resolve({ ok: request.status >= 200 && request.status < 300, status: request.status, data });
    });
    const failed = () =>
      resolve({
        ok: false,
        status: 0,
        data: {
          status: false,
          message: "Network error. Check your connection and try again.",
        } as T,
      });
    request.addEventListener("error", failed);
    request.addEventListener("abort", failed);
    request.addEventListener("timeout", failed);
    request.send(form);
  });
}

/**
 * A form's upload progress: `send` posts the form and reports 0–100 while a file goes with it
 * (null when no file is being sent).
 */
export function useUpload() {
  const [progress, setProgress] = useState<number | null>(null);
  const send = useCallback(async <T>(path: string, form: FormData, withFile: boolean) => {
    setProgress(withFile ? 0 : null);
    const result = await uploadWithProgress<T>(path, form, withFile ? setProgress : () => {});
    setProgress(null);
    return result;
  }, []);
  return { progress, send };
}
