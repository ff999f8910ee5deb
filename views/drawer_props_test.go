package views_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func drawerPtr[T any](v T) *T { return &v }

var drawerFailedAt = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

func TestNewDrawerHeaderProps(t *testing.T) {
	tests := []struct {
		name      string
		in        domain.Status
		state     string
		err       string
		category  string
		errorAt   int64
		protocol  string
		transport string
	}{
		{"connected after a reconnect shows no error",
			domain.Status{ServerName: "a", State: domain.StateConnected, ProtocolVersion: "2025-11-25", Transport: domain.TransportStdio},
			"connected", "", "", 0, "2025-11-25", "DrawerTransportStdio"},
		{"error shows message, category and time",
			domain.Status{ServerName: "a", State: domain.StateError, Error: "exited (code 1)", ErrorCategory: domain.CategoryExited,
				LastErrorAt: drawerFailedAt, Transport: domain.TransportHTTP},
			"error", "exited (code 1)", "DrawerCategoryExited", drawerFailedAt.UnixMilli(), "", "DrawerTransportHTTP"},
		{"reconnecting keeps the last error",
			domain.Status{ServerName: "a", State: domain.StateConnecting, Attempt: 1, Error: "timeout", ErrorCategory: domain.CategoryTimeout,
				Transport: domain.TransportSSE},
			"connecting", "timeout", "DrawerCategoryTimeout", 0, "", "DrawerTransportSSE"},
		{"a connected snapshot never shows an error even if one leaked in",
			domain.Status{ServerName: "a", State: domain.StateConnected, Error: "stale"},
			"connected", "", "", 0, "", "DrawerTransportUnknown"},
		{"auto-disabled keeps its cause",
			domain.Status{ServerName: "a", State: domain.StateDisabled, DisabledReason: domain.DisabledAuto, Error: "auth", ErrorCategory: domain.CategoryAuth},
			"disabled", "auth", "DrawerCategoryAuth", 0, "", "DrawerTransportUnknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := views.NewDrawerHeaderProps(tt.in)
			if got.State != tt.state || got.Error != tt.err || got.CategoryID != tt.category || got.LastErrorAt != tt.errorAt {
				t.Errorf("got state %q error %q category %q at %d, want %q %q %q %d",
					got.State, got.Error, got.CategoryID, got.LastErrorAt, tt.state, tt.err, tt.category, tt.errorAt)
			}
			if got.Protocol != tt.protocol || got.TransportID != tt.transport {
				t.Errorf("got protocol %q transport %q, want %q %q", got.Protocol, got.TransportID, tt.protocol, tt.transport)
			}
			if want := "drawer-header-" + views.ServerKey("a"); got.ID != want {
				t.Errorf("got id %q, want %q", got.ID, want)
			}
		})
	}
}

func TestNewDrawerHeaderPropsStampFollowsStateAndSync(t *testing.T) {
	a := views.NewDrawerHeaderProps(domain.Status{ServerName: "a", State: domain.StateConnected, LastSyncAt: drawerFailedAt})
	b := views.NewDrawerHeaderProps(domain.Status{ServerName: "a", State: domain.StateConnected, LastSyncAt: drawerFailedAt.Add(time.Second)})
	c := views.NewDrawerHeaderProps(domain.Status{ServerName: "a", State: domain.StateError, LastSyncAt: drawerFailedAt})
	if a.Stamp == b.Stamp || a.Stamp == c.Stamp {
		t.Errorf("got stamps %q %q %q, want all different", a.Stamp, b.Stamp, c.Stamp)
	}
	caps := views.NewDrawerCapsProps(domain.Status{ServerName: "a", State: domain.StateConnected, LastSyncAt: drawerFailedAt}, domain.Capabilities{}, "")
	if caps.Stamp != a.Stamp {
		t.Errorf("got caps stamp %q, want the header's %q", caps.Stamp, a.Stamp)
	}
}

func TestNewToolProps(t *testing.T) {
	tests := []struct {
		name string
		in   domain.Tool
		tags []string
		risk string
	}{
		{"no hints is medium", domain.Tool{Name: "t"}, nil, "medium"},
		{"read-only is low", domain.Tool{Name: "t", Annotations: domain.Annotations{ReadOnlyHint: drawerPtr(true)}}, []string{"readOnly"}, "low"},
		{"destructive is high", domain.Tool{Name: "t", Annotations: domain.Annotations{DestructiveHint: drawerPtr(true), IdempotentHint: drawerPtr(true)}},
			[]string{"destructive", "idempotent"}, "high"},
		{"false hints make no tags", domain.Tool{Name: "t", Annotations: domain.Annotations{DestructiveHint: drawerPtr(false), OpenWorldHint: drawerPtr(false)}}, nil, "medium"},
		{"every hint", domain.Tool{Name: "t", Annotations: domain.Annotations{ReadOnlyHint: drawerPtr(true), DestructiveHint: drawerPtr(true),
			IdempotentHint: drawerPtr(true), OpenWorldHint: drawerPtr(true)}}, []string{"readOnly", "destructive", "idempotent", "openWorld"}, "low"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := views.NewDrawerCapsProps(domain.Status{ServerName: "s", State: domain.StateConnected},
				domain.Capabilities{Tools: []domain.Tool{tt.in}}, "")
			got := p.Tools[0]
			var tags []string
			for _, tag := range got.Tags {
				tags = append(tags, tag.Key)
			}
			if !reflect.DeepEqual(tags, tt.tags) || got.Risk != tt.risk {
				t.Errorf("got tags %v risk %q, want %v %q", tags, got.Risk, tt.tags, tt.risk)
			}
		})
	}
}

func TestNewDrawerCapsPropsHiddenWhileDisabled(t *testing.T) {
	caps := domain.Capabilities{Tools: []domain.Tool{{Name: "a"}}, Prompts: []domain.Prompt{{Name: "p"}}}
	tests := []struct {
		state  domain.State
		hidden bool
		tools  int
	}{
		{domain.StateConnected, false, 1},
		{domain.StateConnecting, false, 1},
		{domain.StateError, false, 1},
		{domain.StateDisabled, true, 0},
	}
	for _, tt := range tests {
		got := views.NewDrawerCapsProps(domain.Status{ServerName: "s", State: tt.state}, caps, "/live")
		if got.Hidden != tt.hidden || len(got.Tools) != tt.tools {
			t.Errorf("%s: got hidden %v tools %d, want %v %d", tt.state, got.Hidden, len(got.Tools), tt.hidden, tt.tools)
		}
	}
}

func TestNewDrawerCapsPropsResourcesAndPrompts(t *testing.T) {
	got := views.NewDrawerCapsProps(domain.Status{ServerName: "s", State: domain.StateConnected}, domain.Capabilities{
		Resources:         []domain.Resource{{URI: "file:///a", Name: "a", Title: "A file", MIMEType: "text/plain", Size: drawerPtr(int64(2048))}, {URI: "mem://b"}},
		ResourceTemplates: []domain.ResourceTemplate{{URITemplate: "file:///{p}", Name: "file"}},
		Prompts:           []domain.Prompt{{Name: "sum", Arguments: []domain.PromptArgument{{Name: "text", Required: true}, {Name: "style"}}}},
	}, "")
	wantRes := []views.ResourceProps{{URI: "file:///a", Name: "A file", MIMEType: "text/plain", Size: 2048, HasSize: true}, {URI: "mem://b"}}
	if !reflect.DeepEqual(got.Resources, wantRes) {
		t.Errorf("got resources %+v, want %+v", got.Resources, wantRes)
	}
	if len(got.Templates) != 1 || got.Templates[0].Name != "file" {
		t.Errorf("got templates %+v, want one named file", got.Templates)
	}
	wantArgs := []views.PromptArgProps{{Name: "text", Required: true}, {Name: "style"}}
	if len(got.Prompts) != 1 || !reflect.DeepEqual(got.Prompts[0].Args, wantArgs) {
		t.Errorf("got prompts %+v, want args %+v", got.Prompts, wantArgs)
	}
}

func TestNewDrawerActionsProps(t *testing.T) {
	tests := []struct {
		state    domain.State
		reason   domain.DisabledReason
		disabled bool
	}{
		{domain.StateConnected, "", false},
		{domain.StateError, "", false},
		{domain.StateDisabled, domain.DisabledManual, true},
		{domain.StateDisabled, domain.DisabledAuto, true},
	}
	for _, tt := range tests {
		got := views.NewDrawerActionsProps(domain.Status{ServerName: "s", State: tt.state, DisabledReason: tt.reason}, views.DrawerURLs{})
		if got.Disabled != tt.disabled {
			t.Errorf("%s/%s: got disabled %v, want %v", tt.state, tt.reason, got.Disabled, tt.disabled)
		}
	}
}

func TestNewDrawerSettingsProps(t *testing.T) {
	got := views.NewDrawerSettingsProps(domain.Status{ServerName: "s", AutoReconnect: true, KeepAlive: 45 * time.Second}, "/set")
	if !got.AutoReconnect || got.KeepAlive != "45" || got.URL != "/set" || got.KeepAliveDescribedBy() != got.KeepHelpID {
		t.Errorf("got %+v, want auto on, 45, /set, described by help only", got)
	}
	bad := got.WithKeepAliveError(false, "abc", views.Message{ID: "SettingKeepAliveNotNumber"})
	if bad.AutoReconnect || bad.KeepAlive != "abc" || bad.KeepAliveDescribedBy() != got.KeepHelpID+" "+got.KeepErrorID {
		t.Errorf("got %+v, want the typed values and the error linked", bad)
	}
}

func TestNewDrawerStderrProps(t *testing.T) {
	tests := []struct {
		name      string
		transport domain.Transport
		lines     []string
		remote    bool
		text      string
	}{
		{"stdio joins newest last", domain.TransportStdio, []string{"one", "two"}, false, "one\ntwo"},
		{"stdio empty", domain.TransportStdio, nil, false, ""},
		{"http is remote", domain.TransportHTTP, nil, true, ""},
		{"sse is remote", domain.TransportSSE, nil, true, ""},
	}
	for _, tt := range tests {
		got := views.NewDrawerStderrProps(domain.Status{ServerName: "s", Transport: tt.transport}, tt.lines)
		if got.Remote != tt.remote || got.Text != tt.text || got.Empty != (len(tt.lines) == 0) {
			t.Errorf("%s: got %+v, want remote %v text %q", tt.name, got, tt.remote, tt.text)
		}
	}
}

func TestDrawerHeaderNamesItsSource(t *testing.T) {
	if got := views.NewDrawerHeaderProps(domain.Status{ServerName: "a", Source: "/p/.mcp.json"}).Source; got != "/p/.mcp.json" {
		t.Errorf("Source = %q, want the file the server came from", got)
	}
}
