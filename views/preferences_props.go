package views

import "slices"

// Themes are the accepted values of the "theme" preference; "system"
// follows prefers-color-scheme.
var Themes = []string{"system", "light", "dark"}

// Languages are the accepted values of the "lang" preference, in the
// order the switcher lists them; they match locales.Supported.
var Languages = []string{"en", "pt-BR", "zh-Hans", "es", "de", "fr", "ja", "ar"}

// LangAuto is the switcher's value for "no language of my own": the
// stored choice is cleared and Accept-Language decides again.
const LangAuto = "auto"

// Option is one entry of a <select>.
type Option struct {
	Value    string
	Label    Message
	Lang     string // the label's own language, for screen readers; empty inherits
	Selected bool
}

// PreferencesProps is the theme toggle and the language switcher.
type PreferencesProps struct {
	Action string
	Themes []Option
	Langs  []Option
}

// NormalTheme returns theme if it is one of Themes, else "system".
func NormalTheme(theme string) string {
	for _, t := range Themes {
		if t == theme {
			return t
		}
	}
	return "system"
}

// NewPreferencesProps builds both selects with the current choices marked.
// lang is the language the person chose, not the one the page is shown
// in: with none chosen the switcher marks LangAuto, so saving the form
// unchanged (as the script-free form does for every field) never pins
// the language the browser happened to ask for.
func NewPreferencesProps(action, theme, lang string) PreferencesProps {
	p := PreferencesProps{Action: action}
	theme = NormalTheme(theme)
	for _, t := range Themes {
		p.Themes = append(p.Themes, Option{Value: t, Label: Message{ID: "Theme" + capital(t)}, Selected: t == theme})
	}
	p.Langs = append(p.Langs, Option{Value: LangAuto, Label: Message{ID: "LangAuto"}, Selected: !slices.Contains(Languages, lang)})
	for _, l := range Languages {
		p.Langs = append(p.Langs, Option{Value: l, Label: Message{ID: "LangName_" + l}, Lang: l, Selected: l == lang})
	}
	return p
}

func capital(s string) string { return string(s[0]-'a'+'A') + s[1:] }
