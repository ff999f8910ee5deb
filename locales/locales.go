// Package locales holds every user-visible string in English, Brazilian
// Portuguese, Simplified Chinese, Spanish, German, French, Japanese and
// Arabic, and picks one per request. Templates
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
// Their tags name the files (<piece>.<tag>.toml) and <html lang>.
var Supported = []language.Tag{
	language.English, language.BrazilianPortuguese, language.SimplifiedChinese,
	language.Spanish, language.German, language.French, language.Japanese, language.Arabic,
}

// Catalog is the loaded message bundles.
type Catalog struct {
	matcher language.Matcher
	memos   []*memo // one per Supported language, in its order
}

// bundles parses each language's embedded message files on first use and
// keeps them for the process: nothing changes a bundle after parsing, and
// each holds hundreds of kilobytes of messages and templates, so a process
// whose pages are all in one language holds that language and English,
// not all eight.
var bundles = func() []func() (*i18n.Bundle, error) {
	out := make([]func() (*i18n.Bundle, error), len(Supported))
	for i, tag := range Supported {
		out[i] = sync.OnceValues(func() (*i18n.Bundle, error) { return parseLanguage(tag) })
	}
	return out
}()

// parseLanguage parses the files of one language into a bundle of its own.
func parseLanguage(tag language.Tag) (*i18n.Bundle, error) {
	b := i18n.NewBundle(tag)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	names, err := fs.Glob(files, "*."+tag.String()+".toml")
	if err != nil {
		return nil, fmt.Errorf("list message files: %w", err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no message files for %s", tag)
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
}

// Load returns a catalogue of the embedded message files. English, the
// language a page falls back to when none of its preferences is
// supported, is parsed here, so a broken file fails at start; the others
// are parsed when a page first asks for them (TestCatalogsAreComplete
// parses every one).
// Each catalogue has memos of its own.
func Load() (*Catalog, error) {
	if _, err := bundles[0](); err != nil {
		return nil, err
	}
	memos := make([]*memo, len(Supported))
	for i := range memos {
		memos[i] = &memo{}
	}
	return &Catalog{matcher: language.NewMatcher(Supported), memos: memos}, nil
}

// Localizer translates for one language.
type Localizer struct {
	l     *i18n.Localizer
	tag   language.Tag
	memo  *memo // shared by every localizer of tag
	plain bool  // no bidi isolate marks: see Plain
}

// Plain returns a localizer of the same language whose texts carry no
// bidi isolate marks, for a terminal: it has no bidi algorithm for them to
// guide, and a value copied from it (a path, a URL to register) must not
// carry invisible characters. Its texts are not remembered.
func (l *Localizer) Plain() *Localizer {
	p := *l
	p.plain = true
	return &p
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
	_, i, conf := c.matcher.Match(tags...)
	if conf == language.No {
		i = 0
	}
	b, err := bundles[i]()
	if err != nil {
		// The embedded files are checked by tests; were one broken, the
		// page is still shown, in English.
		i = 0
		b, _ = bundles[0]()
	}
	tag := Supported[i]
	return &Localizer{l: i18n.NewLocalizer(b, tag.String()), tag: tag, memo: c.memos[i]}
}

// Lang is the BCP 47 tag for <html lang>.
func (l *Localizer) Lang() string { return l.tag.String() }

// Dir is the writing direction for <html dir>: "rtl" for Arabic, else
// "ltr".
func (l *Localizer) Dir() string { return Dir(l.tag) }

// Dir is the writing direction of tag's script.
func Dir(tag language.Tag) string {
	if s, _ := tag.Script(); s == rtlArabic || s == rtlHebrew {
		return "rtl"
	}
	return "ltr"
}

var (
	rtlArabic = language.MustParseScript("Arab")
	rtlHebrew = language.MustParseScript("Hebr")
)

// T translates id, filling the template with data. A Count entry in data
// selects the plural form. Texts decided by the id and at most one short
// value are remembered for the language (memo.go), since a page repeats
// them on every row.
func (l *Localizer) T(id string, data map[string]any) string {
	if l.plain {
		s, _ := l.translate(id, data)
		return s
	}
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
	cfg := &i18n.LocalizeConfig{}
	if l.Dir() == "rtl" && !l.plain {
		data = isolated(data)
	}
	if n, ok := data["Count"]; ok {
		cfg.PluralCount = n
		data = l.withCountText(data)
	}
	cfg.MessageID, cfg.TemplateData = id, data
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

// isolated returns data with each text value between the Unicode first
// strong isolate and pop directional isolate marks, for a right-to-left
// sentence: a server's name, a URL or a path is mostly left-to-right and
// may end in brackets or digits, which the bidi algorithm would otherwise
// move to the wrong end of the sentence. The marks are invisible, like
// <bdi> in markup, which a text inside an attribute cannot use.
func isolated(data map[string]any) map[string]any {
	var out map[string]any
	for k, v := range data {
		s, ok := v.(string)
		if !ok || s == "" || k == "Count" {
			continue // a count in text still chooses the plural form
		}
		if out == nil {
			out = make(map[string]any, len(data))
			for k2, v2 := range data {
				out[k2] = v2
			}
		}
		out[k] = "\u2068" + s + "\u2069"
	}
	if out == nil {
		return data
	}
	return out
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
