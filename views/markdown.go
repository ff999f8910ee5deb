package views

import (
	"bytes"
	"html"
	"regexp"
	"sync"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// markdown turns a tool's Markdown into HTML. Raw HTML in the source is
// shown as escaped text (rawHTMLAsText), and the output still passes
// through markdownPolicy, so neither a parser bug nor a crafted link can
// carry script into the page.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify),
	goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(nestHeadings{}, 100))),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(rawHTMLAsText{}, 100))),
)

// markdownPolicy allows the elements Markdown produces and nothing else: no
// images (a remote image would leak that the page was viewed, and CSP
// refuses them anyway), no attributes beyond link targets, table
// alignment and a code block's language class. Links open in a new
// browsing context with no referrer or opener.
var markdownPolicy = sync.OnceValue(func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "del", "s",
		"code", "pre", "blockquote", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "a")
	p.AllowAttrs("start").Matching(bluemonday.Integer).OnElements("ol")
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|right|center)$`)).OnElements("th", "td")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^language-[A-Za-z0-9_+#.-]{1,40}$`)).OnElements("code")
	p.AllowAttrs("href").OnElements("a")
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireParseableURLs(true)
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	return p
})

// RenderMarkdown returns src as sanitized HTML, safe to insert unescaped.
func RenderMarkdown(src string) string {
	var buf bytes.Buffer
	if err := markdown.Convert([]byte(src), &buf); err != nil {
		// goldmark only fails when the writer does; show the text instead.
		return markdownPolicy().Sanitize("<pre>" + html.EscapeString(src) + "</pre>")
	}
	return string(markdownPolicy().SanitizeBytes(buf.Bytes()))
}
