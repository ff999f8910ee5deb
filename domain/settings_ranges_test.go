package domain_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestSecondsRanges(t *testing.T) {
	ka, conn, call := domain.KeepAliveRange, domain.ConnectTimeoutRange, domain.CallTimeoutRange
	tests := []struct {
		name string
		rng  domain.SecondsRange
		in   float64
		want time.Duration
		ok   bool
	}{
		{"keepalive-zero-is-off", ka, 0, 0, true},
		{"keepalive-min", ka, 5, 5 * time.Second, true},
		{"keepalive-fraction-inside", ka, 7.5, 7500 * time.Millisecond, true},
		{"keepalive-max", ka, 3600, time.Hour, true},
		{"keepalive-below-min", ka, 4, 0, false},
		{"keepalive-one", ka, 1, 0, false},
		{"keepalive-above-max", ka, 3601, 0, false},
		{"keepalive-negative", ka, -1, 0, false},
		{"keepalive-overflow", ka, 1e12, 0, false},
		{"keepalive-milli", ka, 0.001, 0, false},
		{"keepalive-tiny", ka, 1e-300, 0, false},
		{"connect-min", conn, 1, time.Second, true},
		{"connect-max", conn, 600, 10 * time.Minute, true},
		{"connect-zero", conn, 0, 0, false},
		{"connect-above-max", conn, 601, 0, false},
		{"connect-overflow", conn, 1e12, 0, false},
		{"connect-tiny", conn, 1e-300, 0, false},
		{"call-min", call, 1, time.Second, true},
		{"call-fraction", call, 1.5, 1500 * time.Millisecond, true},
		{"call-max", call, 86400, 24 * time.Hour, true},
		{"call-above-max", call, 86401, 0, false},
		{"call-overflow", call, 9.3e9, 0, false},
		{"call-nano", call, 1e-9, 0, false},
		{"call-negative", call, -60, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.rng.Seconds(tt.in)
			if tt.ok {
				if err != nil || got != tt.want {
					t.Errorf("Seconds(%g): got %v, %v; want %v", tt.in, got, err, tt.want)
				}
				if err := tt.rng.Check(got); err != nil {
					t.Errorf("Check(%v): got %v, want nil", got, err)
				}
				return
			}
			if !errors.Is(err, domain.ErrInvalidSettings) {
				t.Fatalf("Seconds(%g): got %v, %v; want ErrInvalidSettings", tt.in, got, err)
			}
			if !strings.Contains(err.Error(), tt.rng.Key) || !strings.Contains(err.Error(), tt.rng.Describe()) {
				t.Errorf("message %q, want the key and %q", err, tt.rng.Describe())
			}
		})
	}
}

func TestSecondsRangeCheck(t *testing.T) {
	tests := []struct {
		name string
		rng  domain.SecondsRange
		in   time.Duration
		ok   bool
	}{
		{"keepalive-off", domain.KeepAliveRange, 0, true},
		{"keepalive-30s", domain.KeepAliveRange, 30 * time.Second, true},
		{"keepalive-2s", domain.KeepAliveRange, 2 * time.Second, false},
		{"keepalive-2h", domain.KeepAliveRange, 2 * time.Hour, false},
		{"keepalive-negative", domain.KeepAliveRange, -time.Second, false},
		{"connect-zero", domain.ConnectTimeoutRange, 0, false},
		{"call-day", domain.CallTimeoutRange, 24 * time.Hour, true},
		{"start-default", domain.StartTimeoutRange, domain.DefaultStartTimeout, true},
		{"start-half-hour", domain.StartTimeoutRange, 30 * time.Minute, true},
		{"start-zero", domain.StartTimeoutRange, 0, false},
		{"start-hour", domain.StartTimeoutRange, time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.rng.Check(tt.in); (err == nil) != tt.ok {
				t.Errorf("Check(%v): got %v, want ok=%v", tt.in, err, tt.ok)
			}
		})
	}
}

func TestSecondsRangeDescribe(t *testing.T) {
	for _, tt := range []struct {
		rng  domain.SecondsRange
		want string
	}{
		{domain.KeepAliveRange, "0 (off) or from 5 to 3600 seconds"},
		{domain.ConnectTimeoutRange, "from 1 to 600 seconds"},
		{domain.CallTimeoutRange, "from 1 to 86400 seconds"},
		{domain.StartTimeoutRange, "from 1 to 1800 seconds"},
	} {
		if got := tt.rng.Describe(); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.rng.Key, got, tt.want)
		}
	}
}

// Every number outside its range is a problem of that server alone, at the
// number's line and column; the other servers load.
func TestParseSettingsRefusesOutOfRangeNumbers(t *testing.T) {
	tests := []struct {
		key, value string
		want       string
	}{
		{"keepAliveSeconds", "1e12", `"keepAliveSeconds" must be 0 (off) or from 5 to 3600 seconds, got 1e+12`},
		{"keepAliveSeconds", "0.001", "got 0.001"},
		{"keepAliveSeconds", "1e-300", "got 1e-300"},
		{"keepAliveSeconds", "-1", "got -1"},
		{"keepAliveSeconds", "4", "got 4"},
		{"keepAliveSeconds", "1e400", `"keepAliveSeconds" must be 0 (off) or from 5 to 3600 seconds, got 1e400`},
		{"connectTimeoutSeconds", "0", `"connectTimeoutSeconds" must be from 1 to 600 seconds, got 0`},
		{"connectTimeoutSeconds", "1e12", "got 1e+12"},
		{"callTimeoutSeconds", "9.3e9", `"callTimeoutSeconds" must be from 1 to 86400 seconds, got 9.3e+09`},
		{"callTimeoutSeconds", "1e-9", "got 1e-09"},
		{"startTimeoutSeconds", "0", `"startTimeoutSeconds" must be from 1 to 1800 seconds, got 0`},
		{"startTimeoutSeconds", "3600", "got 3600"},
		// json.Unmarshal matches keys without case, so the offset must too.
		{"KeepAliveSeconds", "1e9", `"keepAliveSeconds" must be 0 (off) or from 5 to 3600 seconds, got 1e+09`},
		{"CALLTIMEOUTSECONDS", "0", "got 0"},
	}
	for _, tt := range tests {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			// The bad number sits on line 3, column 37 (after 4 spaces and
			// `"bad": {"command": "x", "` plus the key and `": `).
			file := "{\n  \"mcpServers\": {\n    \"bad\": {\"command\": \"x\", \"" + tt.key + "\": " + tt.value + "},\n" +
				"    \"good\": {\"command\": \"y\", \"" + tt.key + "\": 30}\n  }\n}\n"
			set, err := domain.ParseSettings("/s.json", []byte(file), func(string) string { return "" })
			if err != nil {
				t.Fatalf("ParseSettings: %v", err)
			}
			if len(set.Servers) != 1 || set.Servers[0].Name != "good" {
				t.Errorf("Servers: got %+v, want only good", set.Servers)
			}
			if len(set.Problems) != 1 {
				t.Fatalf("Problems: got %v, want one", set.Problems)
			}
			p := set.Problems[0]
			wantCol := len(`    "bad": {"command": "x", "`+tt.key+`": `) + 1
			if p.Server != "bad" || p.Line != 3 || p.Column != wantCol || !strings.Contains(p.Message, tt.want) {
				t.Errorf("got %s, want server bad at 3:%d with %q", p, wantCol, tt.want)
			}
		})
	}
}

// Names that a terminal or a bidi renderer would act on are refused;
// other Unicode is fine.
func TestParseSettingsRefusesControlCharactersInNames(t *testing.T) {
	tests := []struct {
		name string // as JSON
		ok   bool
		want string
	}{
		{`"plain"`, true, ""},
		{`"ünïcödé-名前-🙂"`, true, ""},
		{`"esc\u001b[2J"`, false, "U+001B"},
		{`"new\nline"`, false, "U+000A"},
		{`"tab\there"`, false, "U+0009"},
		{`"del\u007f"`, false, "U+007F"},
		{`"csi\u009b"`, false, "U+009B"},
		{`"file\u202egnp.exe"`, false, "U+202E"},
		{`"lre\u202a"`, false, "U+202A"},
		{`"isolate\u2066x\u2069"`, false, "U+2066"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := `{"mcpServers": {` + tt.name + `: {"command": "x"}, "other": {"command": "y"}}}`
			set, err := domain.ParseSettings("/s.json", []byte(file), func(string) string { return "" })
			if err != nil {
				t.Fatalf("ParseSettings: %v", err)
			}
			if tt.ok {
				if len(set.Problems) != 0 || len(set.Servers) != 2 {
					t.Errorf("got servers %v problems %v, want both servers and no problem", set.Servers, set.Problems)
				}
				return
			}
			if len(set.Servers) != 1 || set.Servers[0].Name != "other" {
				t.Errorf("Servers: got %+v, want only other", set.Servers)
			}
			if len(set.Problems) != 1 || !strings.Contains(set.Problems[0].Message, tt.want) || set.Problems[0].Column != 17 {
				t.Errorf("Problems: got %v, want one at column 17 naming %s", set.Problems, tt.want)
			}
		})
	}
}

// startTimeoutSeconds is read like the other numbers, and a server that
// does not set it gets two minutes to start.
func TestParseSettingsStartTimeout(t *testing.T) {
	data := []byte(`{"mcpServers": {
    "slow": {"command": "npx", "args": ["-y", "pkg"], "startTimeoutSeconds": 300},
    "plain": {"command": "npx"}
}}`)
	set, err := domain.ParseSettings("/s.json", data, func(string) string { return "" })
	if err != nil || len(set.Problems) != 0 {
		t.Fatalf("ParseSettings: %v %v", err, set.Problems)
	}
	got := map[string]time.Duration{}
	for _, c := range set.Servers {
		got[c.Name] = c.StartTimeout
	}
	if got["slow"] != 5*time.Minute || got["plain"] != domain.DefaultStartTimeout {
		t.Errorf("start timeouts %v, want slow 5m0s, plain %v", got, domain.DefaultStartTimeout)
	}
}
