// Package locales holds every user-visible string in English, Brazilian
// Portuguese and Simplified Chinese, and picks one per request. Templates
// call T with a message id, never a literal, so a missing translation is a
// test failure rather than English leaking into another language: one test
// fails when an id is in one language's files and not another's, another
// when code spells an id that no file defines.
package locales

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Messages live in one file per UI piece and language, named
// <piece>.<lang>.toml (active.en.toml, drawer.pt-BR.toml, ...), so that
// work on one component does not collide with another.
//
//go:embed *.toml
var files embed.FS

// Supported lists the languages with a complete catalogue, default first.
var Supported = []language.Tag{language.English, language.BrazilianPortuguese, language.SimplifiedChinese}

// Catalog is the loaded message bundle.
type Catalog struct {
	bundle  *i18n.Bundle
	matcher language.Matcher
	memos   []*memo // one per Supported language, in its order
}

// parsedBundle parses the embedded message files, once.
var parsedBundle = sync.OnceValues(func() (*i18n.Bundle, error) {
	b := i18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	names, err := fs.Glob(files, "*.toml")
	if err != nil {
		return nil, fmt.Errorf("list message files: %w", err)
	}
	for _, n := range names {
		data, err := files.ReadFile(n)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", n, err)
		}
		if _, err := b.ParseMessageFileBytes(data, n); err != nil {
			return nil, fmt.Errorf("parse %s: %w", n, err)
		}
	}
	return b, nil
})

// Load returns a catalogue of the embedded message files. The files are
// parsed once per process and the bundle shared, since nothing changes it
// after parsing: each parse holds megabytes of messages and templates, and
// the English fallback of FromContext and the server's catalogue used to
// hold one each. Each catalogue has memos of its own.
func Load() (*Catalog, error) {
	b, err := parsedBundle()
	if err != nil {
		return nil, err
	}
	memos := make([]*memo, len(Supported))
	for i := range memos {
		memos[i] = &memo{}
	}
	return &Catalog{bundle: b, matcher: language.NewMatcher(Supported), memos: memos}, nil
}

// Localizer translates for one language.
type Localizer struct {
	l    *i18n.Localizer
	tag  language.Tag
	memo *memo // shared by every localizer of tag
}

// Localizer picks the best supported language for the preferences given,
// most preferred first (a language cookie, then Accept-Language values).
func (c *Catalog) Localizer(prefs ...string) *Localizer {
	var tags []language.Tag
	for _, p := range prefs {
		t, _, err := language.ParseAcceptLanguage(p)
		if err == nil {
			tags = append(tags, t...)
		}
	}
	_, i, _ := c.matcher.Match(tags...)
	tag := Supported[i]
	return &Localizer{l: i18n.NewLocalizer(c.bundle, tag.String()), tag: tag, memo: c.memos[i]}
}

// Lang is the BCP 47 tag for <html lang>.
func (l *Localizer) Lang() string { return l.tag.String() }

// T translates id, filling the template with data. A Count entry in data
// selects the plural form. Texts decided by the id and at most one short
// value are remembered for the language (memo.go), since a page repeats
// them on every row.
func (l *Localizer) T(id string, data map[string]any) string {
	k, memoized := memoKeyOf(id, data)
	if memoized {
		if s, ok := l.memo.lookup(k); ok {
			return s
		}
	}
	s, found := l.translate(id, data)
	if memoized && found {
		l.memo.remember(k, s)
	}
	return s
}

// translate asks go-i18n for id's text and reports whether it found it.
func (l *Localizer) translate(id string, data map[string]any) (string, bool) {
	cfg := &i18n.LocalizeConfig{MessageID: id, TemplateData: data}
	if n, ok := data["Count"]; ok {
		cfg.PluralCount = n
	}
	s, err := l.l.Localize(cfg)
	if err != nil {
		// The bare id is visible without breaking the page. An id spelled
		// as a literal in code that no file defines fails
		// TestUsedIDsExist; one built at run time ("Rel" + unit + dir) is
		// caught only by a test that renders it.
		return id, false
	}
	return s, true
}

type ctxKey struct{}

// WithLocalizer returns ctx carrying l, for templates to find.
func WithLocalizer(ctx context.Context, l *Localizer) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// FromContext returns the request's localizer, or an English one.
func FromContext(ctx context.Context) *Localizer {
	if l, ok := ctx.Value(ctxKey{}).(*Localizer); ok {
		return l
	}
	return english()
}

// english is made on first use, so that a process that never needs it
// (or needs its own catalogue first) parses nothing at start.
var english = sync.OnceValue(func() *Localizer {
	c, err := Load()
	if err != nil {
		panic(err) // the embedded files are checked by tests
	}
	return c.Localizer("en")
})

// T translates id in the request's language.
func T(ctx context.Context, id string, data map[string]any) string {
	return FromContext(ctx).T(id, data)
}
