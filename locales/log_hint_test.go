package locales_test

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/BurntSushi/toml"
)

// logHints match a message that sends a person to Switchboard's own log
// instead of saying what failed. A person at the dashboard cannot read
// that log, so every failure says what went wrong and what to do in its
// own words. A server's log messages, which the drawer shows, are fine.
var logHints = map[string]*regexp.Regexp{
	"en":      regexp.MustCompile(`(?i)switchboard log|\bsee (the|its) log|\bthe log says|\bin the log\b`),
	"pt-BR":   regexp.MustCompile(`(?i)log do switchboard|\bveja o log|\blog dele\b|\bno log\b`),
	"zh-Hans": regexp.MustCompile(`Switchboard ?的?日志|查看.*日志|见.*日志`),
}

func TestNoMessageSendsPeopleToTheLog(t *testing.T) {
	for lang, hint := range logHints {
		files, err := filepath.Glob("*." + lang + ".toml")
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: found %v (%v)", lang, files, err)
		}
		for _, f := range files {
			var m map[string]any
			if _, err := toml.DecodeFile(f, &m); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for id, v := range m {
				for _, text := range messageTexts(v) {
					if hint.MatchString(text) {
						t.Errorf("%s: %s sends people to the log: %q", f, id, text)
					}
				}
			}
		}
	}
}

// messageTexts returns a message's text, or each plural form's.
func messageTexts(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case map[string]any:
		var out []string
		for _, form := range v {
			if s, ok := form.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// The test above must catch the wording it was written against.
func TestLogHintsMatchTheOldWording(t *testing.T) {
	for lang, text := range map[string]string{
		"en":      "That did not work. See the Switchboard log for details.",
		"pt-BR":   "Não deu certo. Veja os detalhes no log do Switchboard.",
		"zh-Hans": "操作未成功。详情请查看 Switchboard 日志。",
	} {
		if !logHints[lang].MatchString(text) {
			t.Errorf("%s: %q is not caught", lang, text)
		}
	}
	if logHints["en"].MatchString("The server has sent no log messages yet.") {
		t.Errorf("a server's log messages are caught too")
	}
}
