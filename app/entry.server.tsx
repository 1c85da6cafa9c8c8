import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { requestContext } from "#app-context";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";

export const streamTimeout = 5_000;

/**
 * React Router's default Node entry, plus the response's Content-Security-Policy nonce
 * (server/plugins/security-headers.ts): `<ServerRouter nonce>` gives it to every script React
 * Router writes (`<Scripts>`, the streamed loader data, `<Links>`' preloads), and React's own
 * streaming scripts get it from `renderToPipeableStream`. Markup from content never does.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const context = loadContext.get(requestContext);
  context.renderedFor(request.url);
  const nonce = context.cspNonce;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");

    // Crawlers and SPA-mode renders wait for all content before the response starts.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    // Abort after streamTimeout, with time to flush the rejected boundaries.
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html");
          pipe(body);
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors inside the shell are logged here; shell errors reject and are logged by
          // React Router's handleDocumentRequest.
          if (shellRendered) {
            // The status has gone; the page streamed is not the page: keep it out of the cache.
            context.doNotCache();
            context.log.error({ msg: "the page failed while it streamed", err: error });
          }
        },
      },
    );
  });
}

/**
 * A loader's or action's failure, logged by the request's logger (one JSON line with its request
 * id, secrets redacted: docs/decisions/0095-one-log-format.md) instead of React Router's default
 * console.error. A request the client gave up on is not a failure.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  context.get(requestContext).log.error({ msg: "a page's loader or action failed", err: error });
};
