import http from "node:http";
import type { AddressInfo } from "node:net";

interface StripeCall {
  method: string;
  path: string;
  form: Record<string, string>;
  authorization: string;
}

/**
 * A local stand-in for api.stripe.com: records every call the Stripe library makes and answers
 * the few objects the payment page needs.
 */
export async function startFakeStripe() {
  const calls: StripeCall[] = [];
  const paymentIntents = new Map<string, Record<string, unknown>>();
  let counter = 0;
  let failing = false;
  const server = http.createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk) => (raw += chunk));
    request.on("end", () => {
      const path = request.url ?? "";
      const form = Object.fromEntries(new URLSearchParams(raw));
      calls.push({
        method: request.method ?? "",
        path,
        form,
        authorization: request.headers.authorization ?? "",
      });
      const send = (status: number, body: unknown) => {
        response.writeHead(status, {
          "content-type": "application/json",
          "request-id": `req_${counter}`,
        });
        response.end(JSON.stringify(body));
      };
      if (failing)
        return send(400, { error: { type: "invalid_request_error", message: "No such customer" } });
      counter += 1;
      const metadata = Object.fromEntries(
        Object.entries(form)
          .filter(([key]) => key.startsWith("metadata["))
          .map(([key, value]) => [key.slice(9, -1), value]),
      );
      if (request.method === "POST" && path === "/v1/customers") {
        return send(200, { id: `cus_fake${counter}`, object: "customer", email: form.email });
      }
      if (request.method === "POST" && path === "/v1/setup_intents") {
        const id = `seti_fake${counter}`;
        return send(200, {
          id,
          object: "setup_intent",
          client_secret: `${id}_secret_x`,
          status: "requires_payment_method",
          metadata,
        });
      }
      if (request.method === "POST" && path === "/v1/payment_intents") {
        const id = `pi_fake${counter}`;
        const intent = {
          id,
          object: "payment_intent",
          amount: Number(form.amount),
          currency: form.currency,
          customer: form.customer,
          client_secret: `${id}_secret_x`,
          status: "requires_payment_method",
          metadata,
        };
        paymentIntents.set(id, intent);
        return send(200, intent);
      }
      const retrieve = /^\/v1\/payment_intents\/(pi_\w+)$/.exec(path);
      if (request.method === "GET" && retrieve && paymentIntents.has(retrieve[1]!)) {
        return send(200, paymentIntents.get(retrieve[1]!));
      }
      return send(404, {
        error: { type: "invalid_request_error", message: "Unrecognized request URL" },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    paymentIntents,
    setFailing: (value: boolean) => (failing = value),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: "sk_test_fake_123",
  STRIPE_PUBLISHABLE_KEY: "pk_test_fake_123",
};
