import { describe, expect, it } from "vitest";
import {
  htmlToText,
  imageSources,
  sanitizeCommentHtml,
  sanitizeRichHtml,
  textToHtml,
} from "./sanitize.ts";

const LINK_ATTRIBUTES = 'rel="nofollow ugc noopener" target="_blank"';

describe.each([
  ["rich HTML (deals, discussions)", sanitizeRichHtml],
  ["comment HTML", sanitizeCommentHtml],
])("%s", (_, sanitize) => {
  it.each([
    ["a script element", "<p>Hi <script>alert(1)</script>there</p>", "<p>Hi there</p>"],
    ["an inline frame", '<iframe src="https://evil.test"></iframe><p>after</p>', "<p>after</p>"],
    ["styles", '<style>p{color:red}</style><p style="color:red">styled</p>', "<p>styled</p>"],
    ["an SVG with an onload handler", '<svg onload="alert(1)"><circle/></svg>', ""],
    [
      "objects, embeds and forms",
      '<object data="x"></object><embed src="y"><form><input></form>',
      "",
    ],
    ["unknown elements and their attributes", '<div class="x" id="y">text</div>', "text"],
  ])("strips %s", (_, input, expected) => {
    expect(sanitize(input)).toBe(expected);
  });

  it.each([
    ["javascript:", '<a href="javascript:alert(1)">x</a>'],
    ["javascript: in mixed case", '<a href="JaVaScRiPt:alert(1)">x</a>'],
    ["javascript: behind an entity", '<a href="&#106;avascript:alert(1)">x</a>'],
    ["javascript: behind a space", '<a href=" javascript:alert(1)">x</a>'],
    ["data:", '<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;">x</a>'],
    ["a protocol-relative address", '<a href="//evil.test/x">x</a>'],
  ])("drops a link target that is %s, keeping the text", (_, input) => {
    expect(sanitize(input)).toBe(`<a ${LINK_ATTRIBUTES}>x</a>`);
  });

  it("drops event handlers and the author's rel and target, adding its own", () => {
    expect(
      sanitize(
        '<a href="https://shop.test/p" rel="opener" target="_self" onclick="steal()">shop</a>',
      ),
    ).toBe(`<a href="https://shop.test/p" ${LINK_ATTRIBUTES}>shop</a>`);
  });

  it("keeps mail links and the text formatting", () => {
    expect(sanitize('<a href="mailto:deals@example.com">mail</a>')).toBe(
      `<a href="mailto:deals@example.com" ${LINK_ATTRIBUTES}>mail</a>`,
    );
    const formatted =
      "<p><strong>s</strong> <b>b</b> <em>e</em> <i>i</i> <u>u</u> <s>x</s><br /></p>" +
      "<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>q</blockquote><code>c</code>";
    expect(sanitize(formatted)).toBe(formatted);
  });
});

describe("rich HTML", () => {
  it("keeps headings, preformatted text, rules and the site's images, which load lazily", () => {
    expect(sanitizeRichHtml("<h2>A</h2><h3>B</h3><h4>C</h4><pre><code>x</code></pre><hr>")).toBe(
      "<h2>A</h2><h3>B</h3><h4>C</h4><pre><code>x</code></pre><hr />",
    );
    expect(
      sanitizeRichHtml('<img src=" /media/deals/q3Xb.webp " alt="a" width="10" onerror="x()">'),
    ).toBe('<img src="/media/deals/q3Xb.webp" alt="a" width="10" loading="lazy" />');
  });

  it.each([
    ["an outside https image", "https://img.test/a.png"],
    ["http", "http://img.test/a.png"],
    ["data:", "data:image/png;base64,AAAA"],
    ["javascript:", "javascript:alert(1)"],
    ["a protocol-relative address", "//img.test/a.png"],
    ["/go/, which counts a click", "/go/abc123"],
    ["/go/ behind an entity", "&#47;go/abc123"],
    ["another path of the site", "/api/user_deleted"],
    ["a relative path", "media/deals/a.webp"],
    ["a media path that climbs out", "/media/../go/abc123"],
    ["an encoded media path", "/media/deals%2F..%2F..%2Fgo"],
    ["a media path with a query", "/media/deals/a.webp?x=1"],
    ["a media path with a backslash", "/media/\\evil.test/a.png"],
    ["an empty src", ""],
  ])("drops an image whose src is %s, keeping the text around it", (_, src) => {
    expect(sanitizeRichHtml(`<p>before<img src="${src}" alt="x">after</p>`)).toBe(
      "<p>beforeafter</p>",
    );
  });

  it("drops an image without a src", () => {
    expect(sanitizeRichHtml('<p><img alt="x"></p>')).toBe("<p></p>");
  });

  it("replaces the sources it is given by their stored copies, and drops the rest", () => {
    const images = new Map([["https://img.test/a.png?x=1&y=2", "/media/deals/copy.webp"]]);
    expect(
      sanitizeRichHtml(
        '<img src=" https://img.test/a.png?x=1&amp;y=2 " alt="a">' +
          '<img src="https://img.test/other.png"><img src="/media/deals/kept.webp">',
        { images },
      ),
    ).toBe(
      '<img src="/media/deals/copy.webp" alt="a" loading="lazy" />' +
        '<img src="/media/deals/kept.webp" loading="lazy" />',
    );
    // A map cannot bring in what is not site media.
    expect(
      sanitizeRichHtml('<img src="https://img.test/a.png">', {
        images: new Map([["https://img.test/a.png", "/go/abc"]]),
      }),
    ).toBe("");
  });
});

describe("imageSources", () => {
  it("lists each image's src once, decoded and trimmed, https and relative only", () => {
    expect(
      imageSources(
        '<p><img src=" https://img.test/a.png?x=1&amp;y=2 "><img src="http://img.test/b.png">' +
          '<img src="/go/abc"><img src="https://img.test/a.png?x=1&y=2"><img alt="none">' +
          '<img src="data:image/png;base64,AAAA"><img src="/media/deals/a.webp"></p>' +
          '<script><img src="https://hidden.test/x.png"></script>',
      ),
    ).toEqual(["https://img.test/a.png?x=1&y=2", "/go/abc", "/media/deals/a.webp"]);
  });
});

describe("comment HTML", () => {
  it("drops headings, preformatted blocks, rules and images but keeps their text", () => {
    expect(
      sanitizeCommentHtml('<h2>Title</h2><pre>code</pre><hr><img src="https://img.test/a.png">'),
    ).toBe("Titlecode");
  });
});

describe("htmlToText", () => {
  it("keeps the text only, with entities decoded and white space collapsed", () => {
    expect(htmlToText("<p>Tom &amp; Jerry&nbsp;&lt;3</p>\n\n<p>  second   line </p>")).toBe(
      "Tom & Jerry <3 second line",
    );
    expect(htmlToText("<p>&quot;quoted&quot; &#39;single&#39;</p><script>x()</script>")).toBe(
      `"quoted" 'single'`,
    );
  });
});

describe("textToHtml", () => {
  it("escapes markup and turns blank lines into paragraphs and line breaks into <br>", () => {
    expect(textToHtml(' a <b> & "c"\nnext\n\n\nnew para ')).toBe(
      "<p>a &lt;b&gt; &amp; &quot;c&quot;<br>next</p><p>new para</p>",
    );
  });
});
