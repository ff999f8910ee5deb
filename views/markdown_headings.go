package views

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// headingShift is how far a tool's Markdown headings move down: a card's
// own title is an h3 under the feed's h2, so a result's "# Title" becomes
// an h4 and the page's outline stays in order for screen readers.
const headingShift = 3

// nestHeadings moves every heading of a tool's Markdown below the card's.
type nestHeadings struct{}

// Transform shifts heading levels, clamped to h6.
func (nestHeadings) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			h.Level = min(h.Level+headingShift, 6)
		}
		return ast.WalkContinue, nil
	})
}
