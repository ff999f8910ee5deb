package main

import (
	"strings"
	"sync"

	"github.com/switchboard-mcp/switchboard/locales"
)

// cliCatalog is parsed on the first status command, not at start: the
// other commands print no localized text.
var cliCatalog = sync.OnceValues(locales.Load)

// cliLocalizer returns the localizer for a terminal's output. An explicit
// --lang wins; otherwise the language is found as POSIX tools find it, in
// LC_ALL, then LC_MESSAGES, then LANG, so `LANG=de_DE.UTF-8 switchboard
// status` speaks German like the rest of that shell. "C", "POSIX" and
// nothing mean English, as they do for every other tool.
func cliLocalizer(flagLang string, getenv func(string) string) *locales.Localizer {
	c, err := cliCatalog()
	if err != nil {
		panic(err) // the embedded files are checked by tests
	}
	tag := strings.TrimSpace(flagLang)
	if tag == "" {
		tag = posixLanguage(getenv)
	}
	if tag == "" {
		tag = "en"
	}
	return c.Localizer(tag).Plain()
}

// posixLanguage turns the first set one of LC_ALL, LC_MESSAGES and LANG
// into a BCP 47 tag: "de_DE.UTF-8" → "de-DE", "sr_RS@latin" → "sr-RS". An
// empty result means English.
func posixLanguage(getenv func(string) string) string {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := getenv(name)
		if v == "" {
			continue
		}
		if i := strings.IndexAny(v, ".@"); i >= 0 {
			v = v[:i]
		}
		if v == "C" || v == "POSIX" || v == "" {
			return ""
		}
		return strings.ReplaceAll(v, "_", "-")
	}
	return ""
}
