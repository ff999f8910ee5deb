package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// english is the localizer the tests that pin English lines use.
var english = cliLocalizer("en", noEnv)

func TestStatusPosixLanguage(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, ""},
		{map[string]string{"LANG": "de_DE.UTF-8"}, "de-DE"},
		{map[string]string{"LANG": "C"}, ""},
		{map[string]string{"LANG": "C.UTF-8"}, ""},
		{map[string]string{"LANG": "POSIX"}, ""},
		{map[string]string{"LANG": "de_DE.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"}, "ja-JP"},
		{map[string]string{"LANG": "de_DE.UTF-8", "LC_MESSAGES": "ja_JP", "LC_ALL": "C"}, ""},
		{map[string]string{"LC_ALL": "pt_BR.utf8@euro"}, "pt-BR"},
	}
	for _, tt := range tests {
		if got := posixLanguage(func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("posixLanguage(%v) = %q, want %q", tt.env, got, tt.want)
		}
	}
	for env, want := range map[string]string{"de_AT.UTF-8": "de", "zh_CN.UTF-8": "zh-Hans", "ar_EG.UTF-8": "ar", "es_MX": "es", "C": "en", "": "en"} {
		l := cliLocalizer("", func(k string) string {
			if k == "LANG" {
				return env
			}
			return ""
		})
		if l.Lang() != want {
			t.Errorf("LANG=%q: language %q, want %q", env, l.Lang(), want)
		}
	}
	if got := cliLocalizer("fr", func(string) string { return "de_DE.UTF-8" }).Lang(); got != "fr" {
		t.Errorf("--lang fr with LANG=de: %q, want fr", got)
	}
}

// statusSamples reach every text of a status line.
func statusSamples() []handlers.StatusDTO {
	str := func(s string) *string { return &s }
	code := func(n int) *int { return &n }
	retry := time.UnixMilli(1_000_000).Add(95 * time.Second).UnixMilli()
	auth := func(a handlers.AuthDTO) handlers.StatusDTO {
		return handlers.StatusDTO{ServerName: "gh", State: "error", ErrorCategory: str("sign_in"), Auth: &a}
	}
	return []handlers.StatusDTO{
		{ServerName: "a", State: "connected", ToolCount: 1},
		{ServerName: "a", State: "connected", ToolCount: 12},
		{ServerName: "a", State: "connecting", Attempt: 3},
		{ServerName: "a", State: "error", ErrorCategory: str("exited"), ExitCode: code(1), Retryable: true, NextRetryAt: &retry},
		{ServerName: "a", State: "error", ErrorCategory: str("timeout"), ExitCode: code(-1), Retryable: true},
		{ServerName: "a", State: "error"},
		{ServerName: "a", State: "disabled", DisabledReason: str("auto"), Attempt: 5},
		{ServerName: "a", State: "disabled", BlockedReason: str("pending_approval")},
		{ServerName: "a", State: "disabled", BlockedReason: str("rejected")},
		{ServerName: "a", State: "disabled", BlockedReason: str("excluded")},
		{ServerName: "a", State: "disabled", BlockedReason: str("not_allowed")},
		auth(handlers.AuthDTO{State: "sign_in_needed"}),
		auth(handlers.AuthDTO{State: "sign_in_needed", MoreAccess: true, Scopes: []string{"repo"}}),
		auth(handlers.AuthDTO{State: "signing_in"}),
		auth(handlers.AuthDTO{State: "needs_client_id"}),
		auth(handlers.AuthDTO{State: "needs_client_id", RedirectURI: str("http://127.0.0.1:7391/oauth/callback")}),
		auth(handlers.AuthDTO{State: "failed"}),
		{ServerName: "a", State: "connected", ToolCount: 2, Auth: &handlers.AuthDTO{State: "refresh_failing"}},
		{ServerName: "a", State: "connected", ToolCount: 2, Auth: &handlers.AuthDTO{State: "refresh_failing", Detail: str("503")}},
		{ServerName: "a", State: "connected", ToolCount: 2, Auth: &handlers.AuthDTO{State: "signed_in", MoreAccess: true}},
	}
}

// englishWords are words of the English status lines that no other
// language borrows; none may show in another language's lines (URLs and
// settings keys aside). "Dashboard", "Browser", "Client" and "Code" are
// German too, "error" and "no" Spanish, "in" German, so they are not here.
var englishWords = regexp.MustCompile(`(?i)\b(tools?|retry|retrying|connected|connecting|disabled|blocked|failures?|after|enable|exited|timeout|killed|unknown|automatic|project|awaiting|approval|review|rejected|excluded|settings|allow|list|sign|needed|signing|waiting|register|enter|failed|refresh|failing|more|access|scopes|off)\b`)

func TestStatusLinesHaveNoEnglish(t *testing.T) {
	now := time.UnixMilli(1_000_000)
	for _, lang := range []string{"de", "ar", "es", "fr", "pt-BR", "ja", "zh-Hans"} {
		l := cliLocalizer(lang, noEnv)
		if l.Lang() != lang {
			t.Fatalf("--lang %s gave %s", lang, l.Lang())
		}
		for _, s := range statusSamples() {
			line := statusLine(l, s, now)
			// URLs and the settings keys in parentheses are not words.
			text := regexp.MustCompile(`https?://\S+|[(（]mcp\.\w+[)）]`).ReplaceAllString(line, "")
			if strings.Contains(line, "StatusCli") {
				t.Errorf("%s: %q shows a message id", lang, line)
			}
			for _, w := range englishWords.FindAllString(strings.TrimPrefix(text, "● a"), -1) {
				if lang == "de" && strings.EqualFold(strings.TrimSuffix(w, "s"), "tool") {
					continue // German says Tool, as the dashboard does
				}
				t.Errorf("%s: %q holds the English word %q", lang, line, w)
			}
		}
	}
}

func TestStatusLineGermanAndArabic(t *testing.T) {
	now := time.UnixMilli(1_000_000)
	str := func(s string) *string { return &s }
	code := func(n int) *int { return &n }
	at := now.Add(95 * time.Second).UnixMilli()
	crash := handlers.StatusDTO{ServerName: "flaky", State: "error", ErrorCategory: str("exited"), ExitCode: code(1), Retryable: true, NextRetryAt: &at}
	tests := []struct {
		lang string
		in   handlers.StatusDTO
		want string
	}{
		{"de", handlers.StatusDTO{ServerName: "x", State: "connected", ToolCount: 12}, "● x\tverbunden\t12 Tools"},
		{"de", handlers.StatusDTO{ServerName: "x", State: "connected", ToolCount: 1}, "● x\tverbunden\t1 Tool"},
		{"de", crash, "● flaky\tFehler: beendet (Code 1), neuer Versuch in 1 min 35 s"},
		{"ar", handlers.StatusDTO{ServerName: "x", State: "connected", ToolCount: 1}, "● x\tمتصل\tأداة واحدة"},
		{"ar", handlers.StatusDTO{ServerName: "x", State: "connected", ToolCount: 2}, "● x\tمتصل\tأداتان"},
		{"ar", handlers.StatusDTO{ServerName: "x", State: "connected", ToolCount: 5}, "● x\tمتصل\t٥ أدوات"},
		{"ar", handlers.StatusDTO{ServerName: "x", State: "connected", ToolCount: 12}, "● x\tمتصل\t١٢ أداة"},
	}
	for _, tt := range tests {
		if got := statusLine(cliLocalizer(tt.lang, noEnv), tt.in, now); got != tt.want {
			t.Errorf("%s: statusLine = %q, want %q", tt.lang, got, tt.want)
		}
	}
}

// The whole command speaks the shell's language: LANG=de_DE.UTF-8 gives
// German lines and errors, --lang wins over it, C gives English.
func TestStatusCommandLanguage(t *testing.T) {
	goodToken := strings.Repeat("t", 40)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+goodToken {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_ = json.NewEncoder(w).Encode(handlers.ServerListDTO{Servers: []handlers.StatusDTO{{ServerName: "x", State: "connected", ToolCount: 2}}})
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	run := func(env map[string]string, args ...string) (string, error) {
		var out bytes.Buffer
		err := runStatus(context.Background(), append([]string{"--addr", addr}, args...), func(k string) string { return env[k] }, &out, io.Discard)
		return out.String(), err
	}
	for _, tt := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{"SWITCHBOARD_TOKEN": goodToken, "LANG": "de_DE.UTF-8"}, nil, "● x  verbunden  2 Tools\n"},
		{map[string]string{"SWITCHBOARD_TOKEN": goodToken, "LANG": "de_DE.UTF-8"}, []string{"--lang", "en"}, "● x  connected  2 tools\n"},
		{map[string]string{"SWITCHBOARD_TOKEN": goodToken, "LANG": "C.UTF-8"}, nil, "● x  connected  2 tools\n"},
	} {
		got, err := run(tt.env, tt.args...)
		if err != nil || got != tt.want {
			t.Errorf("%v %v: %q, %v; want %q", tt.env, tt.args, got, err, tt.want)
		}
	}
	_, err := run(map[string]string{"SWITCHBOARD_TOKEN": strings.Repeat("w", 40), "LC_ALL": "de_DE.UTF-8"})
	if err == nil || !strings.Contains(err.Error(), "hat das Zugriffstoken abgelehnt") {
		t.Errorf("refused token in German: %v", err)
	}
}

// Arabic lines come out of the right-to-left localizer with bidi
// isolates around each value; the terminal gets them, not their escapes.
func TestStatusArabicLineKeepsIsolates(t *testing.T) {
	now := time.UnixMilli(1_000_000)
	for _, s := range statusSamples() {
		line := statusLine(cliLocalizer("ar", noEnv), s, now)
		if strings.Contains(line, "U+20") {
			t.Errorf("%q shows an escaped bidi mark", line)
		}
	}
}

// With no instance in the data directory, the command says so in the
// environment's language.
func TestStatusNoTokenIsLocalized(t *testing.T) {
	dir := t.TempDir()
	env := func(k string) string {
		if k == "LANG" {
			return "de_DE.UTF-8"
		}
		return ""
	}
	err := runStatus(context.Background(), []string{"--data", dir}, env, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "kein Zugriffstoken in "+dir) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("runStatus in an empty data directory = %v, want the German no-token error wrapping ErrNotExist", err)
	}
}
