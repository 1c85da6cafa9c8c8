import { useEffect, useRef, useState } from "react";
import { FiCopy } from "react-icons/fi";
import { DELAYS_MS } from "../../core/constants.ts";

/** Copies text with the Clipboard API, or the older selection-based command where it is missing. */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied or unavailable (e.g. not a secure context): try the fallback.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/** A coupon's code with a copy button and a short "Copied!" confirmation. */
export function CouponCode({ code }: { code: string }) {
  const [status, setStatus] = useState<"" | "copied" | "failed">("");
  const codeRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!status) return;
    const timer = setTimeout(() => setStatus(""), DELAYS_MS.feedback);
    return () => clearTimeout(timer);
  }, [status]);

  async function copy() {
    if (await copyText(code)) {
      setStatus("copied");
      return;
    }
    // Last resort: select the code so the visitor can copy it with the keyboard.
    const selection = window.getSelection();
    if (selection && codeRef.current) {
      const range = document.createRange();
      range.selectNodeContents(codeRef.current);
      selection.removeAllRanges();
      selection.addRange(range);
    }
    setStatus("failed");
  }

  return (
    <div className="coupon-code">
      <span className="coupon-code-label">Coupon code</span>
      <code ref={codeRef}>{code}</code>
      <button type="button" className="btn btn-outline" onClick={copy}>
        <FiCopy aria-hidden="true" /> Copy
      </button>
      <span className="coupon-code-status" role="status" aria-live="polite">
        {status === "copied"
          ? "Copied!"
          : status === "failed"
            ? "Press Ctrl+C to copy the code."
            : ""}
      </span>
    </div>
  );
}
