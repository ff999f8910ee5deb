package views

import (
	"slices"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// cardHeadingLevel is the level of a card's own title (the h3 around the
// tool name in invocation_card.templ, under the list's or drawer's h2).
// A result's Markdown headings sit below it; a views test checks the
// card still uses this level.
const cardHeadingLevel = 3

// nestHeadings moves a tool's Markdown headings below the card's title
// so the page outline never skips a level, which screen-reader users
// navigate by and axe's heading-order rule checks.
type nestHeadings struct{}

// Transform maps the document's heading levels by rank: the smallest
// level used becomes the card's level + 1, the next distinct one + 2, and
// so on, capped at h6. Ranks alone can still skip (a "###" before the
// first "#"), so each heading is also kept at most one below the heading
// before it, starting from the card's title.
func (nestHeadings) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	var headings []*ast.Heading
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			headings = append(headings, h)
		}
		return ast.WalkContinue, nil
	})
	var used []int
	for _, h := range headings {
		if !slices.Contains(used, h.Level) {
			used = append(used, h.Level)
		}
	}
	slices.Sort(used)
	prev := cardHeadingLevel
	for _, h := range headings {
		rank := slices.Index(used, h.Level) + 1
		level := min(cardHeadingLevel+rank, prev+1, 6)
		h.Level = level
		prev = level
	}
}
