import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES as M } from "../../core/people/accounts/schema.ts";
import { findSessionUser } from "../../core/auth/sessions.ts";
import { SESSION_COOKIE } from "../../core/constants.ts";
import { DEMO_EMAIL } from "../../db/demo/seed.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { startLocalHttps, type LocalHttps } from "../helpers/local-https.ts";
import { pngImage } from "../helpers/multipart.ts";
import {
  DEFAULT_CLIENTS,
  startOidcProvider,
  type OidcProvider,
  type TokenTamper,
} from "../helpers/oidc.ts";
import { TestClient } from "../helpers/session.ts";
import { startSmtpCapture, type SmtpCapture, smtpMailer } from "../helpers/smtp.ts";
import { createTestUser } from "../helpers/users.ts";

let t: TestApp;
let provider: OidcProvider;
let smtp: SmtpCapture;
/** Serves the provider's pictures on 127.0.0.1 (the tests' loopback switch); /o.png is one. */
let pictures: LocalHttps;
const pictureRequests: string[] = [];

/** A client id of another app at the same provider (docs/decisions/0026-social-sign-in.md). */
const OTHER_CLIENT = "someone-elses-client";

beforeAll(async () => {
  provider = await startOidcProvider();
  smtp = await startSmtpCapture();
  const png = await pngImage(96, 96);
  pictures = await startLocalHttps((request, response) => {
    pictureRequests.push(request.url ?? "/");
    const image = request.url === "/o.png";
    response.writeHead(200, { "content-type": image ? "image/png" : "text/html" });
    response.end(image ? png : "<p>not a picture</p>");
  });
  t = await createTestApp({
    jobs: true,
    env: { ...provider.env(), LINK_CHECK_ALLOW_LOOPBACK: "on" },
    mailer: smtpMailer(smtp),
  });
});

afterAll(async () => {
  await t?.close();
  await provider?.close();
  await smtp?.close();
  await pictures?.close();
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
    intent?: "login" | "delete" | "link";
    tamperState?: boolean;
    /** Where the flow starts instead of /auth/{provider} (a mailed link). */
    startUrl?: string;
  } = {},
) {
  const name = options.provider ?? "google";
  const start = await client.get(
    options.startUrl ?? `/auth/${name}${options.intent ? `?intent=${options.intent}` : ""}`,
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

async function linksOf(userId: number) {
  const rows = await t.deps.db
    .selectFrom("oauth_accounts")
    .select(["provider", "provider_user_id"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
  return rows.map((row) => `${row.provider}:${row.provider_user_id}`);
}

async function sessionUserId(client: TestClient) {
  const token = client.cookies.get(SESSION_COOKIE);
  return token ? ((await findSessionUser(t.deps.db, token))?.id ?? null) : null;
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
      picture: `${pictures.base}/o.png`,
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
    // The provider's picture is copied once, as an avatar (docs/decisions/0074-images-in-user-html.md).
    expect(row?.image_url).toMatch(/^\/media\/avatars\/[\w-]+\.webp$/);
    expect(pictureRequests).toEqual(["/o.png"]);
    const media = await t.deps.db
      .selectFrom("media")
      .select(["user_id", "width"])
      .where("path", "=", row!.image_url!.slice("/media/".length))
      .executeTakeFirstOrThrow();
    expect(media).toEqual({ user_id: row!.id, width: 96 });
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

  it("signs up without a picture the provider names that is not an image", async () => {
    const sub = uniqueSub("nopic");
    const email = `${sub}@example.com`;
    provider.setUser({
      sub,
      email,
      email_verified: true,
      name: "Nadia Nopic",
      picture: `${pictures.base}/page.html`,
    });
    const done = await codeFlow(new TestClient(t.app));
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe("/");
    expect((await userByEmail(email))?.image_url).toBeNull();
  });
  it("returns to a local next after sign-in, and goes home for an off-site one (issue 14)", async () => {
    const sub = uniqueSub("next");
    provider.setUser({ sub, email: `${sub}@example.com`, email_verified: true, name: "Nia Next" });
    const local = "/post/abc123/lego-classic-bricks?ref=card";
    const back = await codeFlow(new TestClient(t.app), {
      startUrl: `/auth/google?intent=login&next=${encodeURIComponent(local)}`,
    });
    expect(back.headers.location).toBe(local);

    for (const hostile of ["//evil.example", "https://evil.example/x", "/%2F%2Fevil.example"]) {
      const home = await codeFlow(new TestClient(t.app), {
        startUrl: `/auth/google?intent=login&next=${encodeURIComponent(hostile)}`,
      });
      expect(home.headers.location, hostile).toBe("/");
    }

    // A forged flow cookie cannot smuggle an off-site next in either: it is checked on use.
    const forged = new TestClient(t.app);
    const start = await forged.get(`/auth/google?intent=login&next=${encodeURIComponent(local)}`);
    const flow = JSON.parse(
      Buffer.from(forged.cookies.get("oauthFlow")!, "base64url").toString("utf8"),
    ) as Record<string, unknown>;
    expect(flow.next).toBe(local);
    forged.cookies.set(
      "oauthFlow",
      Buffer.from(JSON.stringify({ ...flow, next: "//evil.example" })).toString("base64url"),
    );
    const atProvider = await fetch(new URL(start.headers.location as string), {
      redirect: "manual",
    });
    const callback = new URL(atProvider.headers.get("location")!);
    const done = await forged.get(`${callback.pathname}${callback.search}`);
    expect(done.headers.location).toBe("/");

    // A failed sign-in goes back to /login with the return path, for the next try.
    const failed = await codeFlow(new TestClient(t.app), {
      startUrl: `/auth/google?intent=login&next=${encodeURIComponent(local)}`,
      tamperState: true,
    });
    expect(failed.headers.location).toBe(
      `/login?social_error=failed&next=${encodeURIComponent(local)}`,
    );
  });

  it("joins an existing account only after its owner confirms by the mailed link", async () => {
    const demo = await userByEmail(DEMO_EMAIL);
    const linksBefore = await linksOf(demo!.id);

    // An address the provider does not vouch for: refused, nothing mailed or linked.
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

    // A verified address is not enough either: the owner is mailed a link, nobody is signed in.
    const sub = uniqueSub("verified");
    provider.setUser({ sub, email: DEMO_EMAIL, email_verified: true, name: "Demo" });
    const owner = new TestClient(t.app);
    const pending = await codeFlow(owner, { provider: "facebook" });
    expect(pending.headers.location).toBe("/login?social_error=confirm_link");
    expect(owner.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await linksOf(demo!.id)).toEqual(linksBefore);
    const mail = await smtp.waitForMessage(DEMO_EMAIL, { subject: /Link your Facebook sign-in/ });
    const link = new URL(mail.links.find((l) => l.includes("/auth/facebook/link/"))!);

    // Opened while signed in at the provider as someone else: refused, the link still works.
    provider.setUser({ sub: uniqueSub("intruder"), email: "x@example.com", email_verified: true });
    const intruder = new TestClient(t.app);
    const wrong = await codeFlow(intruder, { provider: "facebook", startUrl: link.pathname });
    expect(wrong.headers.location).toBe("/login?social_error=link");
    expect(intruder.cookies.has(SESSION_COOKIE)).toBe(false);

    // Opened by the owner with the same provider account: linked and signed in.
    provider.setUser({ sub, email: DEMO_EMAIL, email_verified: true, name: "Demo" });
    const done = await codeFlow(owner, { provider: "facebook", startUrl: link.pathname });
    expect(done.headers.location).toBe("/user/profile");
    expect(await sessionUserId(owner)).toBe(demo!.id);
    const links = await t.deps.db
      .selectFrom("oauth_accounts")
      .select("provider_user_id")
      .where("user_id", "=", demo!.id)
      .where("provider", "=", "facebook")
      .execute();
    expect(links.map((l) => l.provider_user_id)).toEqual([sub]);

    // The link works once; from now on the provider signs in to the account directly.
    const again = await owner.get(link.pathname);
    expect(again.headers.location).toBe("/login?social_error=link");
    const next = new TestClient(t.app);
    expect((await codeFlow(next, { provider: "facebook" })).headers.location).toBe("/");
    expect(await sessionUserId(next)).toBe(demo!.id);
  });

  it("links the provider to the signed-in user, from a sign-in or the link action", async () => {
    const member = await createTestUser(t.deps.db);
    const client = new TestClient(t.app);
    await client.signInAs(t.deps.db, member);

    const viaLink = uniqueSub("link-action");
    provider.setUser({ sub: viaLink, email: `${viaLink}@example.com`, email_verified: true });
    const linked = await codeFlow(client, { intent: "link" });
    expect(linked.headers.location).toBe("/user/profile");
    expect(await sessionUserId(client)).toBe(member);

    const viaSignin = uniqueSub("signed-in");
    provider.setUser({ sub: viaSignin, email: `${viaSignin}@example.com`, email_verified: true });
    const signedIn = await codeFlow(client, { provider: "facebook" });
    expect(signedIn.headers.location).toBe("/");
    expect(await sessionUserId(client)).toBe(member);
    expect(await linksOf(member)).toEqual([`google:${viaLink}`, `facebook:${viaSignin}`]);
    // No account was made for either address.
    expect(await userByEmail(`${viaLink}@example.com`)).toBeUndefined();

    // An identity that belongs to another account is not moved by the link action.
    const other = new TestClient(t.app);
    await other.signInAs(t.deps.db, await createTestUser(t.deps.db));
    provider.setUser({ sub: viaLink, email: `${viaLink}@example.com`, email_verified: true });
    const taken = await codeFlow(other, { intent: "link" });
    expect(taken.headers.location).toBe("/login?social_error=link");
    expect(await linksOf(member)).toContain(`google:${viaLink}`);

    // The link action needs a signed-in user.
    const visitor = await t.app.inject({ method: "GET", url: "/auth/google?intent=link" });
    expect(visitor.headers.location).toBe("/login?next=%2Fuser%2Fprofile");
  });

  it("refuses a code flow whose tokens were issued to another client", async () => {
    const tampers: [string, TokenTamper][] = [
      ["ID token for another client", { idToken: { aud: OTHER_CLIENT } }],
      [
        "ID token for several audiences, no azp",
        { idToken: { aud: [DEFAULT_CLIENTS.google, OTHER_CLIENT] } },
      ],
      ["ID token presented by another client", { idToken: { azp: OTHER_CLIENT } }],
      [
        "several audiences, presented by another client",
        { idToken: { aud: [DEFAULT_CLIENTS.google, OTHER_CLIENT], azp: OTHER_CLIENT } },
      ],
      [
        "access token of another client, needed for userinfo",
        { idToken: { email: undefined }, accessTokenClient: OTHER_CLIENT },
      ],
    ];
    for (const [label, tamper] of tampers) {
      const sub = uniqueSub("other-client");
      const email = `${sub}@example.com`;
      provider.setUser({ sub, email, email_verified: true, name: "Other App" });
      provider.tamperNextTokenResponse(tamper);
      const client = new TestClient(t.app);
      const done = await codeFlow(client);
      expect(done.headers.location, label).toBe("/login?social_error=failed");
      expect(client.cookies.has(SESSION_COOKIE), label).toBe(false);
      expect(await userByEmail(email), label).toBeUndefined();
    }

    // The same flow with this site's own tokens signs in: the address comes from userinfo, with
    // an access token the provider's introspection names this client for.
    const sub = uniqueSub("own-client");
    const email = `${sub}@example.com`;
    provider.setUser({ sub, email, email_verified: true, name: "Own App" });
    provider.tamperNextTokenResponse({
      idToken: { email: undefined, azp: DEFAULT_CLIENTS.google },
    });
    const introspectionsBefore = provider.introspections();
    const client = new TestClient(t.app);
    expect((await codeFlow(client)).headers.location).toBe("/");
    expect(provider.introspections()).toBe(introspectionsBefore + 1);
    expect((await userByEmail(email))?.email).toBe(email);
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
  function socialSignin(
    payload: Record<string, unknown>,
    url = "/api/social_signin",
    session?: string,
  ) {
    const headers = session ? { authorization: `Bearer ${session}` } : {};
    return t.app.inject({ method: "POST", url, payload, headers });
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

  it("accepts an access token that the provider's introspection names this client for", async () => {
    const sub = uniqueSub("access");
    const email = `${sub}@example.com`;
    provider.setUser({ sub, email, email_verified: true, name: "Access Token" });
    const accessToken = await provider.accessToken(DEFAULT_CLIENTS.facebook);
    const response = await socialSignin({
      provider: "facebook",
      provider_id: sub,
      access_token: accessToken,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.email).toBe(email);
  });

  it("refuses access tokens issued to another client, or not by the provider", async () => {
    const sub = uniqueSub("other-access");
    const email = `${sub}@example.com`;
    provider.setUser({ sub, email, email_verified: true, name: "Other Access" });
    const otherProvider = await startOidcProvider();
    try {
      otherProvider.setUser({ sub, email, email_verified: true });
      const tokens = [
        await provider.accessToken(OTHER_CLIENT),
        // Issued to this site's Facebook client, presented as a Google token.
        await provider.accessToken(DEFAULT_CLIENTS.facebook),
        // Names this site's client, but signed by someone else's keys.
        await otherProvider.accessToken(DEFAULT_CLIENTS.google),
        // An ID token is not an access token.
        await provider.idToken(DEFAULT_CLIENTS.google, { sub, email, email_verified: true }),
        "not-a-token",
      ];
      for (const [i, accessToken] of tokens.entries()) {
        const response = await socialSignin({ provider: "google", access_token: accessToken });
        expect(response.statusCode, `token ${i}`).toBe(401);
        expect(response.json()).toEqual({ status: false, message: M.socialFailed });
      }
      expect(await userByEmail(email)).toBeUndefined();
    } finally {
      await otherProvider.close();
    }
  });

  it("a token for another client never signs in to, nor deletes, a password account", async () => {
    // The report's attack: another app's tokens for a person who has a password account here.
    const victim = await userByEmail(DEMO_EMAIL);
    const sub = uniqueSub("victim");
    provider.setUser({ sub, email: DEMO_EMAIL, email_verified: true, name: "Demo" });
    const claims = { sub, email: DEMO_EMAIL, email_verified: true };
    const foreign = [
      { id_token: await provider.idToken(OTHER_CLIENT, claims) },
      {
        id_token: await provider.idToken(DEFAULT_CLIENTS.google, { ...claims, azp: OTHER_CLIENT }),
      },
      { access_token: await provider.accessToken(OTHER_CLIENT) },
    ];
    // Even with the victim's own fresh session, these tokens delete nothing.
    const victimSession = new TestClient(t.app);
    const session = await victimSession.signInAs(t.deps.db, victim!.id);
    for (const token of foreign) {
      const signin = await socialSignin({ provider: "google", ...token });
      expect(signin.statusCode).toBe(401);
      expect(signin.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
      for (const bearer of [undefined, session]) {
        const deleted = await socialSignin(
          { provider: "google", ...token },
          "/api/social_signin_deleted",
          bearer,
        );
        expect(deleted.statusCode).toBe(401);
        expect(deleted.json().message).toBe(M.socialFailed);
      }
    }
    expect(await userByEmail(DEMO_EMAIL)).toMatchObject({ id: victim!.id });
    expect(await linksOf(victim!.id)).not.toContain(`google:${sub}`);
  });

  it("a verified address of a password account gets a mailed link, not a session", async () => {
    const owner = await createTestUser(t.deps.db);
    const { email } = (await t.deps.db
      .selectFrom("users")
      .select("email")
      .where("id", "=", owner)
      .executeTakeFirstOrThrow())!;
    const sub = uniqueSub("mobile-existing");
    const idToken = await provider.idToken(DEFAULT_CLIENTS.google, {
      sub,
      email,
      email_verified: true,
      name: "Someone",
    });
    const response = await socialSignin({
      provider: "google",
      provider_id: sub,
      id_token: idToken,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      status: false,
      message: M.socialFailed,
      confirmation_mail_sent: true,
    });
    expect(response.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    expect(await linksOf(owner)).toEqual([]);
    const mail = await smtp.waitForMessage(email, { subject: /Link your Google sign-in/ });
    expect(mail.links.some((l) => l.startsWith("http://localhost:3000/auth/google/link/"))).toBe(
      true,
    );

    // The same token, sent by the signed-in owner, links the provider to their account.
    const signedIn = new TestClient(t.app);
    const session = await signedIn.signInAs(t.deps.db, owner);
    const linked = await socialSignin(
      { provider: "google", provider_id: sub, id_token: idToken },
      "/api/social_signin",
      session,
    );
    expect(linked.statusCode).toBe(200);
    expect(linked.json().data.user_id).toBe(owner);
    expect(await linksOf(owner)).toEqual([`google:${sub}`]);
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
    // The account's own session, just signed in, as the app has it after social_signin.
    const response = await socialSignin(
      {
        provider: "google",
        provider_id: sub,
        id_token: await provider.idToken(DEFAULT_CLIENTS.google, claims),
      },
      "/api/social_signin_deleted",
      created.json().data.token,
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

  it("POST /api/social_signin_deleted needs that account's session, signed in within 10 minutes", async () => {
    const sub = uniqueSub("guarded");
    const email = `${sub}@example.com`;
    const claims = { sub, email, email_verified: true, name: "Guarded" };
    const token = () => provider.idToken(DEFAULT_CLIENTS.google, claims);
    const created = await socialSignin({ provider: "google", id_token: await token() });
    expect(created.statusCode).toBe(200);
    const userId = created.json().data.user_id as number;
    const session = created.json().data.token as string;
    const attempt = async (bearer?: string) =>
      socialSignin(
        { provider: "google", id_token: await token() },
        "/api/social_signin_deleted",
        bearer,
      );

    const noSession = await attempt();
    expect(noSession.statusCode).toBe(401);

    const stranger = new TestClient(t.app);
    const strangerSession = await stranger.signInAs(t.deps.db, await createTestUser(t.deps.db));
    expect((await attempt(strangerSession)).statusCode).toBe(403);

    await t.deps.db
      .updateTable("sessions")
      .set({ created_at: new Date(Date.now() - 11 * 60 * 1000) })
      .where("user_id", "=", userId)
      .execute();
    const stale = await attempt(session);
    expect(stale.statusCode).toBe(403);
    expect(stale.json().message).toBe(M.deleteNeedsRecentSignin);
    expect(await userByEmail(email)).toMatchObject({ id: userId });

    // A fresh sign-in with the provider, then the deletion goes through.
    const fresh = await socialSignin({ provider: "google", id_token: await token() });
    expect((await attempt(fresh.json().data.token)).statusCode).toBe(200);
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
