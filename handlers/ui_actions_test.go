package handlers_test

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
)

func TestUIDisableEnableRestart(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), filesCaps())

	r := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIDisable, "files"), url.Values{}, "en")
	if r.status != http.StatusOK {
		t.Fatalf("disable: got %d, want 200; body: %s", r.status, r.body)
	}
	if st, _ := f.fleet.Status("files"); st.State != domain.StateDisabled {
		t.Errorf("state after disable: got %s, want disabled", st.State)
	}
	toggle := r.doc.Find(`[data-testid="action-enable"]`)
	if toggle.Length() != 1 || r.doc.Find(`[data-testid="action-disable"]`).Length() != 0 {
		t.Errorf("after disable: got enable %d disable %d, want only enable", toggle.Length(), r.doc.Find(`[data-testid="action-disable"]`).Length())
	}
	if id, _ := toggle.Attr("id"); id == "" {
		t.Errorf("enable button has no id; focus could not follow the swap")
	}
	if r.doc.Find(`[data-testid="caps-hidden"]`).Length() != 1 {
		t.Errorf("after disable: got no caps-hidden in the answer")
	}
	if got, _ := r.doc.Find(`[data-testid="drawer-header"]`).Attr("data-state"); got != "disabled" {
		t.Errorf("header state: got %q, want disabled", got)
	}

	r = f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIEnable, "files"), url.Values{}, "en")
	if r.status != http.StatusOK || r.doc.Find(`[data-testid="action-disable"]`).Length() != 1 {
		t.Fatalf("enable: got %d with disable button %d, want 200 and 1; body: %s", r.status, r.doc.Find(`[data-testid="action-disable"]`).Length(), r.body)
	}
	if r.doc.Find(`[data-testid="tool-item"]`).Length() != 2 {
		t.Errorf("after enable: got %d cached tools, want 2", r.doc.Find(`[data-testid="tool-item"]`).Length())
	}
	f.conn.Next(t).Succeed(domaintest.NewSession(filesCaps()))
	waitFor(t, f.fleet.Hub(), "files", "connected", func(s domain.Status) bool { return s.State == domain.StateConnected })

	r = f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIRestart, "files"), url.Values{}, "en")
	if r.status != http.StatusOK {
		t.Fatalf("restart: got %d, want 200; body: %s", r.status, r.body)
	}
	if got, _ := r.doc.Find(`[data-testid="drawer-header"]`).Attr("data-state"); got != "connecting" {
		t.Errorf("header state after restart: got %q, want connecting", got)
	}
	f.conn.Next(t).Succeed(domaintest.NewSession(filesCaps()))
	waitFor(t, f.fleet.Hub(), "files", "connected", func(s domain.Status) bool { return s.State == domain.StateConnected })
}

func TestUIRestartDisabledIsRefusedInToast(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), filesCaps())
	if _, err := f.fleet.Disable(t.Context(), "files"); err != nil {
		t.Fatal(err)
	}
	r := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIRestart, "files"), url.Values{}, "pt-BR")
	wantToast(t, r, http.StatusConflict, "server_disabled", "files está desativado")
}

func TestUIActionsOnUnknownServer(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{handlers.PathUIRestart, handlers.PathUIDisable, handlers.PathUIEnable, handlers.PathUISettings} {
		r := f.ui(t, http.MethodPost, handlers.ServerPath(p, "ghost"), url.Values{"keepAliveSeconds": {"30"}}, "en")
		wantToast(t, r, http.StatusNotFound, "not_found", "There is no server named ghost")
	}
	r := f.ui(t, http.MethodGet, handlers.ServerPath(handlers.PathUIRemove, "ghost"), nil, "en")
	wantToast(t, r, http.StatusNotFound, "not_found", "ghost")
	r = f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIRemove, "ghost"), url.Values{}, "en")
	wantToast(t, r, http.StatusNotFound, "not_found", "ghost")
}

func TestUISettingsSave(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), filesCaps())

	r := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUISettings, "files"),
		url.Values{"keepAliveSeconds": {"120"}}, "en") // the unchecked box is not sent
	if r.status != http.StatusOK {
		t.Fatalf("save: got %d, want 200; body: %s", r.status, r.body)
	}
	st, _ := f.fleet.Status("files")
	if st.AutoReconnect || st.KeepAlive != 2*time.Minute {
		t.Errorf("settings: got auto %v keep-alive %v, want false 2m", st.AutoReconnect, st.KeepAlive)
	}
	if st.State != domain.StateConnected {
		t.Errorf("state: got %s, want still connected (no restart)", st.State)
	}
	if got := r.doc.Find(`[data-testid="settings-status"]`).Text(); !strings.Contains(got, "Saved") {
		t.Errorf("status: got %q, want Saved", got)
	}
	if v, _ := r.doc.Find(`[data-testid="setting-keepalive"]`).Attr("value"); v != "120" {
		t.Errorf("field: got %q, want 120", v)
	}
	if _, on := r.doc.Find(`[data-testid="setting-auto-reconnect"]`).Attr("checked"); on {
		t.Errorf("auto-reconnect: got checked, want off")
	}

	r = f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUISettings, "files"),
		url.Values{"autoReconnect": {"on"}, "keepAliveSeconds": {"0"}}, "en")
	if st, _ := f.fleet.Status("files"); r.status != http.StatusOK || !st.AutoReconnect || st.KeepAlive != 0 {
		t.Errorf("second save: got %d auto %v keep-alive %v, want 200 true 0", r.status, st.AutoReconnect, st.KeepAlive)
	}
}

func TestUISettingsValidation(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), filesCaps())
	before, _ := f.fleet.Status("files")

	for _, tc := range []struct {
		value, lang, want string
	}{
		{"", "en", "Enter a number of seconds, or 0 to turn the check off."},
		{"abc", "en", "Enter a whole number of seconds."},
		{"1.5", "pt-BR", "Informe um número inteiro de segundos."},
		{"3601", "zh-Hans", "请输入 0 以关闭检查，或输入 5 到 3600 之间的数字。"},
		{"-1", "en", "Enter 0 to turn the check off, or a number from 5 to 3600."},
		{"4", "pt-BR", "Informe 0 para desligar a verificação, ou um número de 5 a 3600."},
		{"99999999999999999999", "en", "Enter 0 to turn the check off, or a number from 5 to 3600."},
	} {
		t.Run(tc.value, func(t *testing.T) {
			r := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUISettings, "files"),
				url.Values{"autoReconnect": {"on"}, "keepAliveSeconds": {tc.value}}, tc.lang)
			if r.status != http.StatusUnprocessableEntity {
				t.Fatalf("status: got %d, want 422; body: %s", r.status, r.body)
			}
			if got := r.doc.Find(`[data-testid="setting-keepalive-error"]`).Text(); got != tc.want {
				t.Errorf("error: got %q, want %q", got, tc.want)
			}
			in := r.doc.Find(`[data-testid="setting-keepalive"]`)
			if v, _ := in.Attr("value"); v != tc.value {
				t.Errorf("field: got %q, want what was typed %q", v, tc.value)
			}
			if inv, _ := in.Attr("aria-invalid"); inv != "true" {
				t.Errorf("aria-invalid: got %q, want true", inv)
			}
			if r.header.Get("HX-Retarget") != "" {
				t.Errorf("a field error went to the toast; want it beside the field")
			}
		})
	}
	if after, _ := f.fleet.Status("files"); after.KeepAlive != before.KeepAlive || after.AutoReconnect != before.AutoReconnect {
		t.Errorf("settings changed by refused forms: got %v/%v, want %v/%v", after.AutoReconnect, after.KeepAlive, before.AutoReconnect, before.KeepAlive)
	}
}

func TestUIRemoveConfirmThenRemove(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), filesCaps())
	path := handlers.ServerPath(handlers.PathUIRemove, "files")

	r := f.ui(t, http.MethodGet, path, nil, "en")
	if r.status != http.StatusOK {
		t.Fatalf("confirm: got %d, want 200; body: %s", r.status, r.body)
	}
	dialog := r.doc.Find(`[data-testid="confirm-dialog"]`)
	if role, _ := dialog.Attr("role"); role != "alertdialog" {
		t.Errorf("confirm role: got %q, want alertdialog", role)
	}
	if got := dialog.Text(); !strings.Contains(got, settingsPath) {
		t.Errorf("confirm text %q does not name the settings file %s", got, settingsPath)
	}
	if got, _ := r.doc.Find(`[data-testid="confirm-yes"]`).Attr("hx-post"); got != path {
		t.Errorf("confirm-yes posts to %q, want %q", got, path)
	}
	if len(f.editor.recorded()) != 0 {
		t.Fatalf("asking removed something: %v", f.editor.recorded())
	}

	r = f.ui(t, http.MethodPost, path, url.Values{}, "en")
	if r.status != http.StatusOK {
		t.Fatalf("remove: got %d, want 200; body: %s", r.status, r.body)
	}
	if got := r.header.Get("HX-Retarget"); got != "#drawer-slot" {
		t.Errorf("HX-Retarget: got %q, want #drawer-slot", got)
	}
	if strings.TrimSpace(r.body) != "" {
		t.Errorf("body: got %q, want empty (the drawer closes)", r.body)
	}
	if want := []string{settingsPath + "#files"}; !slices.Equal(f.editor.recorded(), want) {
		t.Errorf("editor calls: got %v, want %v", f.editor.recorded(), want)
	}
	if names := f.fleet.Names(); len(names) != 0 {
		t.Errorf("fleet: got %v, want empty", names)
	}
}

func TestUIRemoveFailureKeepsServer(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), filesCaps())
	f.editor.failWith(errors.New("write /home/dev/.config/switchboard/mcp.json: disk full"))

	r := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIRemove, "files"), url.Values{}, "en")
	wantToast(t, r, http.StatusInternalServerError, "internal", "files could not be removed")
	if strings.Contains(r.body, "disk full") {
		t.Errorf("the toast leaks the raw error: %s", r.body)
	}
	if names := f.fleet.Names(); !slices.Equal(names, []string{"files"}) {
		t.Errorf("fleet: got %v, want files kept", names)
	}
	if recs := f.logs.records(t, "request failed"); len(recs) == 0 {
		t.Errorf("the failure was not logged")
	}
}
