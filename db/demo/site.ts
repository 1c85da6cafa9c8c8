/** Site-wide settings and pages of the demo: settings rows, footer, social links, privacy policy. */

export const SITE_NAME = "Chalkboard Deals";

export const GENERAL_SETTINGS = {
  website_name: SITE_NAME,
  website_logo: "/media/demo/logo.png",
  website_keywords:
    "teacher deals, classroom supplies, school supplies coupons, back to school deals, teacher discounts, coupon codes, classroom decor, educator forum",
  website_description:
    "Chalkboard Deals is a community where teachers and shoppers share the best deals, coupons and freebies on school supplies, classroom tech, books and more.",
} as const;

export const FOOTER_SETTINGS = {
  playstore_url: "https://play.google.com/store/apps/details?id=com.chalkboarddeals.app",
  app_store_url: "https://apps.apple.com/us/app/chalkboard-deals/id0000000000",
  play_store_image: "/media/demo/google-play-badge.png",
  app_store_image: "/media/demo/app-store-badge.png",
  copyright_text: "Chalkboard Deals. All rights reserved.",
} as const;

export const SOCIAL_LINKS: readonly { name: string; social_url: string; social_image: string }[] = [
  {
    name: "Facebook",
    social_url: "https://www.facebook.com/chalkboarddeals",
    social_image: "icon-facebook",
  },
  {
    name: "Twitter",
    social_url: "https://twitter.com/chalkboarddeals",
    social_image: "icon-twitter",
  },
  {
    name: "Instagram",
    social_url: "https://www.instagram.com/chalkboarddeals",
    social_image: "icon-instagram",
  },
  {
    name: "Pinterest",
    social_url: "https://www.pinterest.com/chalkboarddeals",
    social_image: "icon-pinterest",
  },
  {
    name: "YouTube",
    social_url: "https://www.youtube.com/@chalkboarddeals",
    social_image: "icon-youtube",
  },
];

export const SUBSCRIPTION_PLAN = {
  name: "Chalkboard Plus",
  description:
    "Deal alerts for your favorite stores and categories, an ad-free site, early access to teacher-only coupons and a monthly classroom freebie.",
  price_cents: 1099,
  currency: "usd",
  interval: "month",
} as const;

export const PRIVACY_POLICY_TITLE = "Privacy Policy";

/** Trusted HTML written by the site owner (cms_pages.detail). */
export const PRIVACY_POLICY_HTML = `<h2>Privacy Policy</h2>
<p><strong>Last updated: November 29, 2026</strong></p>
<p>Chalkboard Deals ("Chalkboard Deals", "we", "us") runs a community web site and mobile apps where teachers and shoppers share deals, coupons and classroom discussions. This policy explains what personal information we collect, why we collect it, who we share it with and the choices you have. By using the site you agree to the practices described here.</p>

<h3>1. Information we collect</h3>
<p><strong>Account information.</strong> When you register we collect your name, email address and a password. We never store your password itself, only a one-way cryptographic hash of it. If you sign in with Google or Facebook, we receive your name, email address, profile picture and an account identifier from that provider; we do not receive your password for those services.</p>
<p><strong>Profile information you choose to add.</strong> Your photo, date of birth, gender, biography, mobile number, website and address are optional. Your name, photo, user type, join date, biography, website, verified educator badge and public activity appear on your public profile; your email address, mobile number, date of birth, gender and address are never shown to other members.</p>
<p><strong>Content you post.</strong> Deals, coupons, discussions, comments, replies, likes and follows are public and are linked to your profile. Images you upload are re-encoded on our servers, which removes camera and location metadata (EXIF) before they are stored.</p>
<p><strong>Messages to us.</strong> When you use the <a href="/contact">Contact Us</a> form we keep your name, email, mobile number, website and message so that we can answer you.</p>
<p><strong>Technical information.</strong> Like most web sites, our servers record your IP address, browser type, the pages you request and the time of each request. We use this to keep the service secure, prevent abuse and spam, count deal views and fix problems.</p>
<p><strong>Payments.</strong> If you subscribe to Chalkboard Plus, your card is processed by our payment provider, Stripe. Your full card number never reaches our servers; we keep only the subscription status, plan and dates.</p>

<h3>2. Cookies</h3>
<p>We use a small number of cookies that the site needs to work:</p>
<ul>
<li><strong>Session cookie</strong> (<code>loginTokenChalkboard</code>): keeps you signed in. It contains a random token, is not readable by scripts, and is removed when you log out.</li>
<li><strong>Security cookie</strong> (<code>XSRF-TOKEN</code>): protects your account against cross-site request forgery by confirming that forms and requests really come from our pages.</li>
<li><strong>Preference cookies</strong>: remember simple choices such as whether you are signed in on this device.</li>
</ul>
<p>We do not use cookies to build advertising profiles, and we do not let advertising networks set tracking cookies on our pages. Stores you visit through our links may set their own cookies under their own policies.</p>

<h3>3. Affiliate links and commissions</h3>
<p>Some links to stores on Chalkboard Deals are affiliate links. If you click one and make a purchase, the store may pay us a commission at no extra cost to you. To credit the sale, the store or affiliate network learns that you arrived from Chalkboard Deals; we do not send them your name, email address or account details. Commissions never change the price you pay, and members' posts are not edited to favor stores that pay us.</p>

<h3>4. How we use your information</h3>
<ul>
<li>To run your account, show your posts and profile, and let you comment, like and follow.</li>
<li>To send you messages you need: email confirmation, password reset links and important notices about your account. We never send your password by email.</li>
<li>To keep the community safe: detecting spam, fraud, abuse and duplicate deals, and enforcing our rules.</li>
<li>To understand how the site is used and improve it, using aggregated statistics.</li>
<li>To comply with the law and respond to lawful requests.</li>
</ul>

<h3>5. We do not sell your data</h3>
<p>We do not sell, rent or trade your personal information, and we do not share it for cross-context behavioral advertising. We share information only with service providers that help us run the site (hosting, email delivery, payment processing), under contracts that allow them to use it only on our behalf, or when the law requires it.</p>

<h3>6. How long we keep information</h3>
<p>We keep your account information for as long as your account is open. Server logs are kept for up to 90 days. Contact messages are kept for up to two years. When you delete your account, everything that is yours alone is removed at once, as section 7 lists; backups containing it are overwritten within 30 days.</p>

<h3>7. Deleting your account and your rights</h3>
<p>You can correct your profile at any time from <strong>My Account</strong>, and you can delete your account yourself at <a href="/delete-account">/delete-account</a>. An administrator who deletes an account at your request does exactly the same.</p>
<p><strong>What deleting your account removes</strong>, at once and all together:</p>
<ul>
<li>your name, email address, password, photo and every profile detail;</li>
<li>your votes (likes and unlikes), "Expired?" marks, coupon "worked / didn't work" answers and the reports you filed, which no longer count anywhere;</li>
<li>your keyword alerts and what they found, your saved deals, the stores, categories and members you follow, and your followers;</li>
<li>your notifications, your email settings, any email to you not sent yet, and the mention of your name in other members' notifications;</li>
<li>your signed-in devices, sign-in and reset links, and linked Google or Facebook accounts;</li>
<li>your verified educator requests, your Teachers Wishlist entries not yet approved, your subscriptions, and the messages you sent us while signed in.</li>
</ul>
<p><strong>What stays</strong>, shown as written by "Deleted user" with no name or photo: the deals, discussions and comments you posted, so that other members' replies keep their sense, unless you tick <em>Also delete my deals, discussions and comments</em> when you delete your account (they are then deleted with everything under them, as our moderators delete posts; a comment others replied to keeps its place as "This comment was deleted."). Approved Teachers Wishlist entries stay public, and the record of actions taken by our staff stays, so that the site stays accountable for them.</p>
<p><strong>A copy of your data.</strong> From <strong>My Account</strong>, <em>Download my data</em> saves, as one JSON file, what we keep about you: your profile, posts, comments, votes, saved deals, follows, alerts, notifications, email settings, signed-in devices (never their keys) and links to the pictures you uploaded. You can download it up to five times an hour.</p>
<p>Depending on where you live (for example, California or the European Economic Area), you may also have the right to access a copy of your data, to correct it, to object to or restrict its use, and to data portability. To make any of these requests, write to us through the <a href="/contact">Contact Us</a> page; we will answer within 30 days and will not discriminate against you for exercising your rights.</p>

<h3>8. Security</h3>
<p>We protect your information with encrypted connections (HTTPS), hashed passwords, session tokens stored only in hashed form, and limited staff access. No system is perfectly secure, so please use a unique password for your account and tell us right away if you suspect unauthorized use.</p>

<h3>9. Children</h3>
<p>Chalkboard Deals is intended for adults: teachers, parents and shoppers. It is not directed to children under 13, and we do not knowingly collect personal information from them. If you believe a child under 13 has created an account, please contact us and we will delete it. Teachers should never post students' names, photos or other identifying information.</p>

<h3>10. Changes to this policy</h3>
<p>We may update this policy as the service changes. When we do, we will change the "Last updated" date above, and if the changes are significant we will notify registered members by email or with a notice on the site before they take effect.</p>

<h3>11. Contact us</h3>
<p>Questions about this policy or your personal information? Reach us through the <a href="/contact">Contact Us</a> page and choose the "others" category; we read every message.</p>`;
