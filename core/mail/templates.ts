/**
 * The site's mails, each as plain text and as simple inline-styled HTML (mail clients ignore style
 * sheets). Every value that came from a person is escaped.
 */

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

interface Common {
  siteName: string;
  /** The recipient's name as they gave it. */
  name: string;
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

function layout(siteName: string, paragraphs: string[], action?: { label: string; url: string }) {
  const site = escapeHtml(siteName);
  const body = paragraphs
    .map((p) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;color:#1f2330">${p}</p>`)
    .join("\n");
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 24px;background:#353f66;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold;font-size:16px">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:14px;line-height:1.5;color:#555b6e">If the button does not work, copy this link into your browser:<br><a href="${escapeHtml(action.url)}" style="color:#353f66;word-break:break-all">${escapeHtml(action.url)}</a></p>`
    : "";
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${site}</title></head>
<body style="margin:0;padding:0;background:#f4f5f8;font-family:Arial,Helvetica,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f8;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;padding:32px">
<tr><td>
<h1 style="margin:0 0 24px;font-size:22px;color:#353f66">${site}</h1>
${body}
${button}
<p style="margin:32px 0 0;font-size:13px;line-height:1.5;color:#555b6e">This message was sent by ${site}. If you did not expect it, you can ignore it.</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
}

function signature(siteName: string) {
  return `— ${siteName}\n\nThis message was sent by ${siteName}. If you did not expect it, you can ignore it.\n`;
}

/** Sent at sign-up (and on request from /verify): the single-use confirmation link. */
export function confirmEmailMail(
  input: Common & { link: string; validHours: number },
): MailContent {
  const { siteName, name, link, validHours } = input;
  return {
    subject: `Confirm your email address for ${siteName}`,
    text:
      `Hello ${name},\n\n` +
      `Thank you for registering at ${siteName}. Please confirm your email address by opening this link:\n\n` +
      `${link}\n\n` +
      `The link works once and expires in ${validHours} hours.\n\n` +
      signature(siteName),
    html: layout(
      siteName,
      [
        `Hello ${escapeHtml(name)},`,
        `Thank you for registering at ${escapeHtml(siteName)}. Please confirm your email address.`,
        `The link works once and expires in ${validHours} hours.`,
      ],
      { label: "Confirm my email address", url: link },
    ),
  };
}

/** Forgot password: the single-use reset link. No password is ever mailed. */
export function resetPasswordMail(
  input: Common & { link: string; validMinutes: number },
): MailContent {
  const { siteName, name, link, validMinutes } = input;
  return {
    subject: `Reset your ${siteName} password`,
    text:
      `Hello ${name},\n\n` +
      `Someone (we hope you) asked to reset the password of your ${siteName} account. ` +
      `To choose a new password, open this link:\n\n` +
      `${link}\n\n` +
      `The link works once and expires in ${validMinutes} minutes. ` +
      `If you did not ask for it, ignore this message: your password stays as it is.\n\n` +
      signature(siteName),
    html: layout(
      siteName,
      [
        `Hello ${escapeHtml(name)},`,
        `Someone (we hope you) asked to reset the password of your ${escapeHtml(siteName)} account.`,
        `The link works once and expires in ${validMinutes} minutes. If you did not ask for it, ignore this message: your password stays as it is.`,
      ],
      { label: "Choose a new password", url: link },
    ),
  };
}

/** A security notice after a password change or reset. */
/**
 * Sent once per lock when repeated failed sign-ins locked an account
 * (docs/decisions/0073-sign-in-guessing-limits.md): a single-use reset link, which also ends the
 * lock.
 */
export function signInLockedMail(
  input: Common & { link: string; validMinutes: number; lockedMinutes: number },
): MailContent {
  const { siteName, name, link, validMinutes, lockedMinutes } = input;
  const what =
    `Someone tried to sign in to your ${siteName} account with a wrong password too many ` +
    `times, so sign-in to it is paused for ${lockedMinutes} minutes, from wherever it is tried.`;
  const ifNotYou =
    `If this was not you, your password is still safe as long as nobody knows it; to choose a ` +
    `new one now, and sign in at once, open the link below. It works once and expires in ` +
    `${validMinutes} minutes. If it was you, you can also wait and sign in again later.`;
  return {
    subject: `Sign-in to your ${siteName} account is paused`,
    text: `Hello ${name},\n\n${what}\n\n${ifNotYou}\n\n${link}\n\n${signature(siteName)}`,
    html: layout(siteName, [`Hello ${escapeHtml(name)},`, escapeHtml(what), escapeHtml(ifNotYou)], {
      label: "Choose a new password",
      url: link,
    }),
  };
}

export function passwordChangedMail(input: Common & { forgotPasswordLink: string }): MailContent {
  const { siteName, name, forgotPasswordLink } = input;
  return {
    subject: `Your ${siteName} password was changed`,
    text:
      `Hello ${name},\n\n` +
      `The password of your ${siteName} account was just changed, and every other signed-in ` +
      `device was signed out.\n\n` +
      `If this was not you, reset your password at once:\n\n${forgotPasswordLink}\n\n` +
      signature(siteName),
    html: layout(
      siteName,
      [
        `Hello ${escapeHtml(name)},`,
        `The password of your ${escapeHtml(siteName)} account was just changed, and every other signed-in device was signed out.`,
        `If this was not you, reset your password at once.`,
      ],
      { label: "Reset my password", url: forgotPasswordLink },
    ),
  };
}

/**
 * Sent to the address a member asked to change to: the single-use link that makes it the
 * account's address (nothing changes until it is opened).
 */
export function emailChangeMail(
  input: Common & { newEmail: string; link: string; validHours: number },
): MailContent {
  const { siteName, name, newEmail, link, validHours } = input;
  return {
    subject: `Confirm your new ${siteName} email address`,
    text:
      `Hello ${name},\n\n` +
      `You asked to change the email address of your ${siteName} account to ${newEmail}. ` +
      `Open this link to confirm it:\n\n${link}\n\n` +
      `The link works once and expires in ${validHours} hours. Until you open it, your account ` +
      `keeps its old address. If this was not you, ignore this message: nothing changes.\n\n` +
      signature(siteName),
    html: layout(
      siteName,
      [
        `Hello ${escapeHtml(name)},`,
        `You asked to change the email address of your ${escapeHtml(siteName)} account to <strong>${escapeHtml(newEmail)}</strong>. Confirm it with the button below.`,
        `The link works once and expires in ${validHours} hours. Until you open it, your account keeps its old address. If this was not you, ignore this message: nothing changes.`,
      ],
      { label: "Confirm my new address", url: link },
    ),
  };
}

/** Sent to the old address once a member's address has changed: the notice, in case it was not them. */
export function emailChangedMail(
  input: Common & { newEmail: string; contactLink: string },
): MailContent {
  const { siteName, name, newEmail, contactLink } = input;
  return {
    subject: "Your email address was changed",
    text:
      `Hello ${name},\n\n` +
      `The email address of your ${siteName} account was just changed to ${newEmail}. ` +
      `Mail from us now goes there, and you sign in with it.\n\n` +
      `If this was not you, contact us at once:\n\n${contactLink}\n\n` +
      signature(siteName),
    html: layout(
      siteName,
      [
        `Hello ${escapeHtml(name)},`,
        `The email address of your ${escapeHtml(siteName)} account was just changed to <strong>${escapeHtml(newEmail)}</strong>. Mail from us now goes there, and you sign in with it.`,
        `If this was not you, contact us at once.`,
      ],
      { label: "Contact us", url: contactLink },
    ),
  };
}

/**
 * A sign-in with Google or Facebook named this account's address: the owner confirms the link by
 * opening it while signed in at that provider (docs/decisions/0026-social-sign-in.md).
 */
export function linkProviderMail(
  input: Common & { providerName: string; link: string; validHours: number },
): MailContent {
  const { siteName, name, providerName, link, validHours } = input;
  return {
    subject: `Link your ${providerName} sign-in to your ${siteName} account`,
    text:
      `Hello ${name},\n\n` +
      `Someone (we hope you) just signed in to ${siteName} with ${providerName}, using this ` +
      `email address, which already has an account with us. To sign in to your account with ` +
      `${providerName} from now on, open this link and continue with the same ${providerName} ` +
      `account:\n\n${link}\n\n` +
      `The link works once and expires in ${validHours} hours. If this was not you, ignore this ` +
      `message: nothing changes, and nobody can sign in to your account with ${providerName}.\n\n` +
      signature(siteName),
    html: layout(
      siteName,
      [
        `Hello ${escapeHtml(name)},`,
        `Someone (we hope you) just signed in to ${escapeHtml(siteName)} with ${escapeHtml(providerName)}, using this email address, which already has an account with us. To sign in to your account with ${escapeHtml(providerName)} from now on, open the link and continue with the same ${escapeHtml(providerName)} account.`,
        `The link works once and expires in ${validHours} hours. If this was not you, ignore this message: nothing changes, and nobody can sign in to your account with ${escapeHtml(providerName)}.`,
      ],
      { label: `Link my ${providerName} sign-in`, url: link },
    ),
  };
}

/** Text a person typed, as HTML: escaped, with its line breaks kept. */
function textLines(value: string): string {
  return escapeHtml(value).replace(/\r?\n/g, "<br>");
}

/**
 * The site's answer to a Contact Us message, written in the console (/admin/messages): the reply,
 * then the message it answers, quoted.
 */
export function contactReplyMail(
  input: Common & { subject: string; reply: string; original: string; sentAt: Date },
): MailContent {
  const { siteName, name, subject, reply, original, sentAt } = input;
  const when = sentAt.toUTCString();
  const quoted = original
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join("\n");
  return {
    subject: `Re: ${subject}`.replace(/[\r\n]+/g, " "),
    text:
      `Hello ${name},\n\n${reply}\n\n` +
      (original ? `On ${when} you wrote:\n${quoted}\n\n` : "") +
      signature(siteName),
    html: layout(siteName, [
      `Hello ${escapeHtml(name)},`,
      textLines(reply),
      ...(original
        ? [
            `<span style="color:#555b6e">On ${escapeHtml(when)} you wrote:</span><br><span style="color:#555b6e">${textLines(original)}</span>`,
          ]
        : []),
    ]),
  };
}

/** A verified-educator request by school address: the single-use link that proves the address. */
export function educatorConfirmMail(
  input: Common & { schoolEmail: string; link: string; validHours: number },
): MailContent {
  const { siteName, name, schoolEmail, link, validHours } = input;
  return {
    subject: `Confirm your school address for ${siteName}`,
    text:
      `Hello ${name},\n\n` +
      `You asked ${siteName} to verify you as an educator with the school address ${schoolEmail}. ` +
      `To confirm it, open this link:\n\n${link}\n\n` +
      `The link works once and expires in ${validHours} hours. Your profile, posts and comments ` +
      `then show a "Verified educator" badge. If this was not you, ignore this message: nothing ` +
      `changes.\n\n` +
      signature(siteName),
    html: layout(
      siteName,
      [
        `Hello ${escapeHtml(name)},`,
        `You asked ${escapeHtml(siteName)} to verify you as an educator with the school address ${escapeHtml(schoolEmail)}. To confirm it, open the link.`,
        `The link works once and expires in ${validHours} hours. Your profile, posts and comments then show a “Verified educator” badge. If this was not you, ignore this message: nothing changes.`,
      ],
      { label: "Confirm my school address", url: link },
    ),
  };
}

/**
 * In-site notifications of one kind, mailed (core/member/notifications/mail-job.ts): the newest first,
 * each with its link. The mail queue adds the unsubscribe link and headers (sendToMember).
 */
export function notificationsMail(
  input: Common & {
    kindLabel: string;
    items: { message: string; url: string }[];
    /** How many more unread notifications of this kind there are beyond `items`. */
    more: number;
    allUrl: string;
  },
): MailContent {
  const { siteName, name, kindLabel, items, more, allUrl } = input;
  const count = items.length + more;
  const subject =
    count === 1
      ? items[0]!.message.replace(/[\r\n]+/g, " ").slice(0, 150)
      : `${count} new notifications on ${siteName}: ${kindLabel.toLowerCase()}`;
  const lines = items.map((item) => `- ${item.message}${item.url ? `\n  ${item.url}` : ""}`);
  const moreLine = more > 0 ? `\nAnd ${more} more.\n` : "";
  return {
    subject,
    text:
      `Hello ${name},\n\n${lines.join("\n")}\n${moreLine}\n` +
      `See all your notifications: ${allUrl}\n\n` +
      signature(siteName),
    html: layout(
      siteName,
      [
        `Hello ${escapeHtml(name)},`,
        items
          .map((item) =>
            item.url
              ? `<a href="${escapeHtml(item.url)}" style="color:#353f66">${escapeHtml(item.message)}</a>`
              : escapeHtml(item.message),
          )
          .join("<br><br>"),
        ...(more > 0 ? [`And ${more} more.`] : []),
      ],
      { label: "See all notifications", url: allUrl },
    ),
  };
}

/** One deal in an alert mail. */
export interface AlertMailDeal {
  title: string;
  /** "$12.99", or "" when the deal has no price. */
  price: string;
  store: string;
  url: string;
}

/**
 * Keyword alerts (record 0045): the deals one or more of the member's alerts matched, per alert,
 * with a link to each deal and to the alerts page. Instant mails carry one alert, digests several.
 */
export function alertMatchesMail(
  input: Common & {
    digest: boolean;
    alerts: { label: string; deals: AlertMailDeal[] }[];
    alertsLink: string;
  },
): MailContent {
  const count = input.alerts.reduce((n, a) => n + a.deals.length, 0);
  const subject = input.digest
    ? `Your daily alert digest: ${count} new deal${count === 1 ? "" : "s"}`
    : `New deal${count === 1 ? "" : "s"} for your alert “${input.alerts[0]?.label ?? ""}”`;
  const dealLine = (d: AlertMailDeal) =>
    [d.title, d.price, d.store].filter(Boolean).join(" · ") + `\n  ${d.url}`;
  const text = `Hi ${input.name},

${input.alerts
  .map((a) => `Your alert “${a.label}”:\n${a.deals.map((d) => `- ${dealLine(d)}`).join("\n")}`)
  .join("\n\n")}

Change or pause your alerts: ${input.alertsLink}

${signature(input.siteName)}`;
  const dealHtml = (d: AlertMailDeal) =>
    `<a href="${escapeHtml(d.url)}" style="color:#353f66;font-weight:bold">${escapeHtml(d.title)}</a>` +
    [d.price, d.store]
      .filter(Boolean)
      .map((part) => ` · ${escapeHtml(part)}`)
      .join("");
  const paragraphs = [
    `Hi ${escapeHtml(input.name)},`,
    ...input.alerts.map(
      (a) =>
        `Your alert “${escapeHtml(a.label)}”:<br>${a.deals.map((d) => `• ${dealHtml(d)}`).join("<br>")}`,
    ),
  ];
  return {
    subject,
    text,
    html: layout(input.siteName, paragraphs, {
      label: "Manage your alerts",
      url: input.alertsLink,
    }),
  };
}

/**
 * The weekly digest (docs/decisions/0087-weekly-digest.md): the week's hottest deals from what the
 * member follows, or from the whole site when they follow nothing, hottest first. The mail queue
 * adds the unsubscribe link and headers (sendToMember).
 */
export function weeklyDigestMail(
  input: Common & {
    deals: AlertMailDeal[];
    /** The member follows no store or category: the deals are the whole site's. */
    wholeSite: boolean;
    settingsLink: string;
    /** Where members find stores and categories to follow. */
    followLink: string;
  },
): MailContent {
  const { siteName, name, deals, wholeSite, settingsLink, followLink } = input;
  const count = deals.length;
  const subject = `Your weekly digest: ${count} hot deal${count === 1 ? "" : "s"} on ${siteName}`;
  const intro = wholeSite
    ? `The hottest deals on ${siteName} this past week. You follow no store or category yet: follow some to make this digest yours.`
    : `The hottest deals this past week from the stores and categories you follow.`;
  const dealLine = (d: AlertMailDeal, index: number) =>
    `${index + 1}. ` + [d.title, d.price, d.store].filter(Boolean).join(" · ") + `\n   ${d.url}`;
  const text =
    `Hi ${name},\n\n${intro}\n\n${deals.map(dealLine).join("\n")}\n\n` +
    (wholeSite ? `Stores to follow: ${followLink}\n` : "") +
    `Choose which mails you receive: ${settingsLink}\n\n` +
    signature(siteName);
  // Lines, not a list: the layout puts each paragraph in a <p>, which cannot hold one.
  const dealHtml = (d: AlertMailDeal, index: number) =>
    `${index + 1}. <a href="${escapeHtml(d.url)}" style="color:#353f66;font-weight:bold">${escapeHtml(d.title)}</a>` +
    [d.price, d.store]
      .filter(Boolean)
      .map((part) => ` · ${escapeHtml(part)}`)
      .join("");
  const paragraphs = [
    `Hi ${escapeHtml(name)},`,
    wholeSite
      ? `The hottest deals on ${escapeHtml(siteName)} this past week. You follow no store or category yet: <a href="${escapeHtml(followLink)}" style="color:#353f66">follow some</a> to make this digest yours.`
      : escapeHtml(intro),
    deals.map(dealHtml).join("<br>"),
  ];
  return {
    subject,
    text,
    html: layout(siteName, paragraphs, { label: "Email settings", url: settingsLink }),
  };
}
