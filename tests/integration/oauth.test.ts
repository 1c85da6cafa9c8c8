import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES as M } from "../../core/accounts/schema.ts";
import { findSessionUser } from "../../core/auth/sessions.ts";
import { SESSION_COOKIE } from "../../core/constants.ts";
import { DEMO_EMAIL } from "../../db/demo/seed.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { DEFAULT_CLIENTS, startOidcProvider, type OidcProvider } from "../helpers/oidc.ts";
import { TestClient } from "../helpers/session.ts";

let t: TestApp;
let provider: OidcProvider;

beforeAll(async () => {
  provider = await startOidcProvider();
  t = await createTestApp({ env: provider.env() });
});

afterAll(async () => {
  await t?.close();
  await provider?.close();
});

let counter = 0;
function uniqueSub(label: string) {
  counter += 1;
  return `${label}-${counter}-${Date.now()}`;
}

/**
 * Runs the browser's part of the code flow: start at the site, let the provider (which signs in
 * at once) redirect back, and return the site's final answer.
 */
async function codeFlow(
  client: TestClient,
  options: {
    provider?: "google" | "facebook";
    intent?: "login" | "delete";
    tamperState?: boolean;
  } = {},
) {
  const name = options.provider ?? "google";
  const start = await client.get(
    `/auth/${name}${options.intent ? `?intent=${options.intent}` : ""}`,
  );
  expect(start.statusCode).toBe(302);
  const authorize = new URL(start.headers.location as string);
  expect(authorize.origin).toBe(provider.issuer);
  const params = authorize.searchParams;
  expect(params.get("response_type")).toBe("code");
  expect(params.get("code_challenge_method")).toBe("S256");
  expect(params.get("code_challenge")).toMatch(/^[\w-]{43}$/);
  expect(params.get("state")).toBeTruthy();
  expect(params.get("nonce")).toBeTruthy();
  expect(params.get("redirect_uri")).toBe(`http://localhost:3000/auth/${name}/callback`);
  expect(params.get("client_id")).toBe(DEFAULT_CLIENTS[name]);

  const atProvider = await fetch(authorize, { redirect: "manual" });
  expect(atProvider.status).toBe(302);
  const callback = new URL(atProvider.headers.get("location")!);
  if (options.tamperState) callback.searchParams.set("state", "forged-state");
  return client.get(`${callback.pathname}${callback.search}`);
}

async function userByEmail(email: string) {
  return t.deps.db
    .selectFrom("users")
    .select(["id", "name", "email", "email_verified_at", "password_hash", "image_url"])
    .where("email", "=", email)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

describe("web sign-in with Google and Facebook (authorization code + PKCE + state + nonce)", () => {
  it("creates an account for a new verified address, links it and signs in", async () => {
    const sub = uniqueSub("new");
    const email = `${sub}@example.com`;
    provider.setUser({
      sub,
      email,
      email_verified: true,
      name: "Olga Oauth",
      picture: "https://example.com/o.png",
    });
    const client = new TestClient(t.app);
    const done = await codeFlow(client);
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe("/");
    const token = client.cookies.get(SESSION_COOKIE)!;
    const user = await findSessionUser(t.deps.db, token);
    expect(user).toMatchObject({ name: "Olga Oauth", email, email_verified: true });
    const row = await userByEmail(email);
    expect(row?.password_hash).toBeNull();
    expect(row?.image_url).toBe("https://example.com/o.png");
    const link = await t.deps.db
      .selectFrom("oauth_accounts")
      .select(["provider", "provider_user_id"])
      .where("user_id", "=", row!.id)
      .executeTakeFirstOrThrow();
    expect(link).toEqual({ provider: "google", provider_user_id: sub });
    // The flow cookie is spent.
    expect(client.cookies.has("oauthFlow")).toBe(false);

    // Next time the link is found again, even with another address at the provider.
    provider.setUser({ sub, email: `changed-${email}`, email_verified: true, name: "Olga" });
    const again = new TestClient(t.app);
    await codeFlow(again);
    expect((await findSessionUser(t.deps.db, again.cookies.get(SESSION_COOKIE)!))?.id).toBe(
      row!.id,
    );
  });

  it("links an existing account only through an address the provider verified", async () => {
    provider.setUser({
      sub: uniqueSub("unverified"),
      email: DEMO_EMAIL,
      email_verified: false,
      name: "Mallory",
    });
    const attacker = new TestClient(t.app);
    const refused = await codeFlow(attacker, { provider: "facebook" });
    expect(refused.headers.location).toBe("/login?social_error=failed");
    expect(attacker.cookies.has(SESSION_COOKIE)).toBe(false);

    const demo = await userByEmail(DEMO_EMAIL);
    const sub = uniqueSub("verified");
    provider.setUser({ sub, email: DEMO_EMAIL, email_verified: true, name: "Demo" });
    const owner = new TestClient(t.app);
    const done = await codeFlow(owner, { provider: "facebook" });
    expect(done.headers.location).toBe("/");
    expect((await findSessionUser(t.deps.db, owner.cookies.get(SESSION_COOKIE)!))?.id).toBe(
      demo!.id,
    );
    const links = await t.deps.db
      .selectFrom("oauth_accounts")
      .select("provider_user_id")
      .where("user_id", "=", demo!.id)
      .where("provider", "=", "facebook")
      .execute();
    expect(links.map((l) => l.provider_user_id)).toEqual([sub]);
  });

  it("refuses a callback whose state does not match, or that has no flow cookie", async () => {
    provider.setUser({
      sub: uniqueSub("state"),
      email: `${uniqueSub("state")}@example.com`,
      email_verified: true,
    });
    const client = new TestClient(t.app);
    const forged = await codeFlow(client, { tamperState: true });
    expect(forged.headers.location).toBe("/login?social_error=failed");
    expect(client.cookies.has(SESSION_COOKIE)).toBe(false);

    const noCookie = await t.app.inject({
      method: "GET",
      url: "/auth/google/callback?code=abc&state=xyz",
    });
    expect(noCookie.statusCode).toBe(302);
    expect(noCookie.headers.location).toBe("/login?social_error=failed");
  });

  it("reports a provider that refuses the code", async () => {
    const email = `${uniqueSub("refused")}@example.com`;
    provider.setUser({ sub: uniqueSub("refused"), email, email_verified: true });
    provider.failNextTokenRequest();
    const client = new TestClient(t.app);
    const done = await codeFlow(client);
    expect(done.headers.location).toBe("/login?social_error=failed");
    expect(await userByEmail(email)).toBeUndefined();
  });

  it("signs in to delete an existing account, but never creates one for that", async () => {
    const unknownEmail = `${uniqueSub("nobody")}@example.com`;
    provider.setUser({ sub: uniqueSub("nobody"), email: unknownEmail, email_verified: true });
    const stranger = new TestClient(t.app);
    const none = await codeFlow(stranger, { intent: "delete" });
    expect(none.headers.location).toBe("/delete-account?social_error=nodata");
    expect(await userByEmail(unknownEmail)).toBeUndefined();

    const sub = uniqueSub("leaver");
    const email = `${sub}@example.com`;
    provider.setUser({ sub, email, email_verified: true, name: "Leaving Soon" });
    await codeFlow(new TestClient(t.app)); // creates the account
    const client = new TestClient(t.app);
    const done = await codeFlow(client, { intent: "delete" });
    expect(done.headers.location).toBe("/delete-account?social=confirm");
    const user = await findSessionUser(t.deps.db, client.cookies.get(SESSION_COOKIE)!);
    const deleted = await client.post("/api/user_deleted", { user_id: user!.id });
    expect(deleted.json()).toMatchObject({ status: "true", message: M.userDeleted });
    expect(await userByEmail(email)).toBeUndefined();
  });

  it("sends an unknown provider back to the login page", async () => {
    const response = await t.app.inject({ method: "GET", url: "/auth/myspace" });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe("/login?social_error=failed");
  });
});

describe("POST /api/social_signin (mobile apps: a provider token, never bare claims)", () => {
  function socialSignin(payload: Record<string, unknown>, url = "/api/social_signin") {
    return t.app.inject({ method: "POST", url, payload });
  }

  it("refuses bare claims", async () => {
    const response = await socialSignin({
      provider: "google",
      provider_id: "someone",
      name: "Someone",
      email: DEMO_EMAIL,
      profile_img: "",
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(M.socialTokenRequired);
  });

  it("signs in with an ID token signed by the provider for this site", async () => {
    const sub = uniqueSub("mobile");
    const email = `${sub}@example.com`;
    const idToken = await provider.idToken(DEFAULT_CLIENTS.google, {
      sub,
      email,
      email_verified: true,
      name: "Mo Bile",
    });
    const response = await socialSignin({
      provider: "google",
      provider_id: sub,
      name: "x",
      email: "x@y.z",
      profile_img: "",
      id_token: idToken,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      status: "true",
      data: { user_id: expect.any(Number), name: "Mo Bile", email },
    });
    expect(body.data.token).toBe(response.cookies.find((c) => c.name === SESSION_COOKIE)?.value);
  });

  it("refuses tokens for another client, expired, forged, or naming someone else", async () => {
    const sub = uniqueSub("bad");
    const claims = { sub, email: `${sub}@example.com`, email_verified: true };
    const otherProvider = await startOidcProvider();
    try {
      const forgedIssuerToken = await otherProvider.idToken(DEFAULT_CLIENTS.google, claims);
      const tokens = [
        await provider.idToken("someone-elses-client", claims),
        await provider.idToken(DEFAULT_CLIENTS.google, claims, -120),
        forgedIssuerToken,
        // The right issuer name, signed by a key that is not the provider's.
        await (async () => {
          const [header, payload] = (await provider.idToken(DEFAULT_CLIENTS.google, claims)).split(
            ".",
          );
          const [, , signature] = forgedIssuerToken.split(".");
          return `${header}.${payload}.${signature}`;
        })(),
        "not-a-jwt",
      ];
      for (const idToken of tokens) {
        const response = await socialSignin({
          provider: "google",
          provider_id: sub,
          id_token: idToken,
        });
        expect(response.statusCode, idToken.slice(0, 20)).toBe(401);
        expect(response.json()).toEqual({ status: false, message: M.socialFailed });
      }
      const valid = await provider.idToken(DEFAULT_CLIENTS.google, claims);
      const mismatch = await socialSignin({
        provider: "google",
        provider_id: "someone-else",
        id_token: valid,
      });
      expect(mismatch.statusCode).toBe(401);
      expect(await userByEmail(claims.email)).toBeUndefined();
    } finally {
      await otherProvider.close();
    }
  });

  it("accepts an access token that the provider's userinfo endpoint vouches for", async () => {
    const sub = uniqueSub("access");
    const email = `${sub}@example.com`;
    provider.setUser({ sub, email, email_verified: true, name: "Access Token" });
    const accessToken = await provider.accessToken();
    const response = await socialSignin({
      provider: "facebook",
      provider_id: sub,
      access_token: accessToken,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.email).toBe(email);
  });

  it("POST /api/social_signin_deleted deletes the account a verified token names", async () => {
    const sub = uniqueSub("mobile-delete");
    const email = `${sub}@example.com`;
    const claims = { sub, email, email_verified: true, name: "Gone Soon" };
    const unknown = await socialSignin(
      {
        provider: "google",
        provider_id: sub,
        id_token: await provider.idToken(DEFAULT_CLIENTS.google, claims),
      },
      "/api/social_signin_deleted",
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe("No Data Found !");

    const created = await socialSignin({
      provider: "google",
      provider_id: sub,
      id_token: await provider.idToken(DEFAULT_CLIENTS.google, claims),
    });
    const userId = created.json().data.user_id as number;
    const response = await socialSignin(
      {
        provider: "google",
        provider_id: sub,
        id_token: await provider.idToken(DEFAULT_CLIENTS.google, claims),
      },
      "/api/social_signin_deleted",
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: "true",
      message: M.userDeleted,
      data: { response: { user_id: userId } },
    });
    expect(await findSessionUser(t.deps.db, created.json().data.token)).toBeNull();
    expect(await userByEmail(email)).toBeUndefined();
  });
});

describe("a site without provider keys", () => {
  it("shows the providers as unavailable and sends the start of a flow back with a message", async () => {
    const bare = await createTestApp({ seed: "none" });
    try {
      expect(bare.services.accounts.oauth.isAvailable("google")).toBe(false);
      const start = await bare.app.inject({ method: "GET", url: "/auth/google?intent=delete" });
      expect(start.statusCode).toBe(302);
      expect(start.headers.location).toBe("/delete-account?social_error=failed");
      const mobile = await bare.app.inject({
        method: "POST",
        url: "/api/social_signin",
        payload: { provider: "google", id_token: "x" },
      });
      expect(mobile.statusCode).toBe(401);
      expect(mobile.json().message).toBe(M.socialFailed);
    } finally {
      await bare.close();
    }
  });
});
