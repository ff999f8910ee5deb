package domain

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

func catServer(name string, tools ...string) CatalogueServer {
	s := CatalogueServer{Status: Status{ServerName: name, State: StateConnected, Phase: PhaseConnected}}
	for _, t := range tools {
		s.Caps.Tools = append(s.Caps.Tools, Tool{Name: t})
	}
	return s
}

func exposedNames(c *Catalogue) map[[2]string]string {
	out := map[[2]string]string{}
	for _, t := range c.Tools {
		out[[2]string{t.Server, t.Tool.Name}] = t.Name
	}
	return out
}

var safeNameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,48}$`)

func TestCatalogueNames(t *testing.T) {
	long := strings.Repeat("x", 100)
	tests := []struct {
		name    string
		servers []CatalogueServer
		want    map[[2]string]string // empty value: only checked for shape and uniqueness
	}{
		{"always-prefixed-even-alone", []CatalogueServer{catServer("fs", "read")},
			map[[2]string]string{{"fs", "read"}: "fs__read"}},
		{"dots-and-slashes-replaced", []CatalogueServer{catServer("my.server", "get/file.txt")},
			map[[2]string]string{{"my.server", "get/file.txt"}: "my_server__get_file_txt"}},
		{"double-underscore-collision-gets-hashes", []CatalogueServer{catServer("a__b", "c"), catServer("a", "b__c")},
			map[[2]string]string{
				{"a__b", "c"}: "a__b__c_" + nameHash("a__b", "c", 6),
				{"a", "b__c"}: "a__b__c_" + nameHash("a", "b__c", 6),
			}},
		{"dot-collides-with-underscore", []CatalogueServer{catServer("s", "a.b", "a_b")},
			map[[2]string]string{
				{"s", "a.b"}: "s__a_b_" + nameHash("s", "a.b", 6),
				{"s", "a_b"}: "s__a_b_" + nameHash("s", "a_b", 6),
			}},
		{"hundred-char-name-shortened", []CatalogueServer{catServer("srv", long)},
			map[[2]string]string{{"srv", long}: ("srv__" + long)[:41] + "_" + nameHash("srv", long, 6)}},
		{"exactly-48-kept", []CatalogueServer{catServer("srv", strings.Repeat("y", 43))},
			map[[2]string]string{{"srv", strings.Repeat("y", 43)}: "srv__" + strings.Repeat("y", 43)}},
		{"two-long-names-sharing-a-prefix", []CatalogueServer{catServer("srv", long+"1", long+"2")}, nil},
		{"unicode-replaced", []CatalogueServer{catServer("ü", "ñame")},
			map[[2]string]string{{"ü", "ñame"}: "____ame"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewCatalogue(tt.servers)
			got := exposedNames(c)
			seen := map[string]bool{}
			for k, name := range got {
				if !safeNameRE.MatchString(name) {
					t.Errorf("%v: got %q, not [A-Za-z0-9_-]{1,48}", k, name)
				}
				if seen[name] {
					t.Errorf("got %q twice", name)
				}
				seen[name] = true
				et, ok := c.Tool(name)
				if !ok || et.Server != k[0] || et.Tool.Name != k[1] {
					t.Errorf("route %q: got %+v %v, want %v", name, et, ok, k)
				}
			}
			for k, want := range tt.want {
				if got[k] != want {
					t.Errorf("%v: got %q, want %q", k, got[k], want)
				}
			}
		})
	}
}

func TestCatalogueDeterministicAcrossOrder(t *testing.T) {
	a := []CatalogueServer{catServer("a__b", "c", "x.y"), catServer("a", "b__c"), catServer("z", "x_y")}
	b := []CatalogueServer{a[2], a[1], a[0]}
	for i := range 3 {
		got, want := fmt.Sprint(exposedNames(NewCatalogue(b))), fmt.Sprint(exposedNames(NewCatalogue(a)))
		if got != want {
			t.Fatalf("run %d: got %s, want %s", i, got, want)
		}
	}
}

func TestCatalogueNamesStableWhenServerJoins(t *testing.T) {
	before := exposedNames(NewCatalogue([]CatalogueServer{catServer("fs", "read")}))
	after := exposedNames(NewCatalogue([]CatalogueServer{catServer("fs", "read"), catServer("git", "read")}))
	if before[[2]string{"fs", "read"}] != after[[2]string{"fs", "read"}] {
		t.Fatalf("got %v then %v, want the same name", before, after)
	}
}

func TestCatalogueBareNames(t *testing.T) {
	c := NewCatalogue([]CatalogueServer{catServer("a", "echo", "only_a"), catServer("b", "echo")})
	if et, ok := c.Tool("only_a"); !ok || et.Server != "a" {
		t.Errorf("unambiguous bare name: got %+v %v, want server a", et, ok)
	}
	if et, ok := c.Tool("echo"); ok {
		t.Errorf("ambiguous bare name: got %+v, want refused", et)
	}
	if _, ok := c.Tool("nope"); ok {
		t.Error("unknown name: got found, want refused")
	}
	if et, ok := c.Tool("b__echo"); !ok || et.Server != "b" || et.Tool.Name != "echo" {
		t.Errorf("exposed name: got %+v %v", et, ok)
	}
}

func TestCatalogueResources(t *testing.T) {
	a := catServer("beta")
	a.Caps.Resources = []Resource{{URI: "file:///x"}, {URI: "file:///b"}}
	a.Caps.ResourceTemplates = []ResourceTemplate{{URITemplate: "t://{id}"}}
	b := catServer("alpha")
	b.Caps.Resources = []Resource{{URI: "file:///x"}, {URI: "file:///a"}}
	b.Caps.ResourceTemplates = []ResourceTemplate{{URITemplate: "t://{id}"}}
	c := NewCatalogue([]CatalogueServer{a, b})
	if s, _ := c.ResourceServer("file:///x"); s != "alpha" {
		t.Errorf("clash: got %q, want alpha (first by name)", s)
	}
	if s, _ := c.ResourceServer("file:///b"); s != "beta" {
		t.Errorf("got %q, want beta", s)
	}
	if s, _ := c.TemplateServer("t://{id}"); s != "alpha" {
		t.Errorf("template clash: got %q, want alpha", s)
	}
	if got, want := fmt.Sprint(c.Clashes), "[{file:///x [alpha beta]} {t://{id} [alpha beta]}]"; got != want {
		t.Errorf("clashes: got %s, want %s", got, want)
	}
	if got := len(c.Resources); got != 3 {
		t.Errorf("resources: got %d, want 3", got)
	}
}

func TestExposable(t *testing.T) {
	tests := []struct {
		name string
		st   Status
		was  bool
		want bool
	}{
		{"connected", Status{State: StateConnected}, false, true},
		{"first-connect", Status{State: StateConnecting}, false, false},
		{"restart-keeps-tools", Status{State: StateConnecting, ConnectedAt: time.Unix(1, 0)}, false, true},
		{"reconnect-after-exposed", Status{State: StateConnecting}, true, true},
		{"error-hides", Status{State: StateError}, true, false},
		{"disabled-hides", Status{State: StateDisabled}, true, false},
		{"blocked-hides", Status{State: StateConnected, BlockedReason: BlockedExcluded}, true, false},
		{"waiting-retry-after-exposed-keeps-tools", Status{State: StateError, Phase: PhaseWaiting, Retryable: true, Attempt: 1}, true, true},
		{"waiting-retry-never-exposed-hides", Status{State: StateError, Phase: PhaseWaiting, Retryable: true, Attempt: 1}, false, false},
		{"waiting-not-retryable-hides", Status{State: StateError, Phase: PhaseWaiting, Attempt: 1}, true, false},
		{"exhausted-hides", Status{State: StateError, Phase: PhaseExhausted, Retryable: true}, true, false},
		{"auto-disabled-hides", Status{State: StateDisabled, Phase: PhaseExhausted, DisabledReason: DisabledAuto}, true, false},
		{"waiting-but-disabled-hides", Status{State: StateDisabled, Phase: PhaseWaiting, Retryable: true, DisabledReason: DisabledManual}, true, false},
		{"waiting-but-blocked-hides", Status{State: StateError, Phase: PhaseWaiting, Retryable: true, BlockedReason: BlockedExcluded}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Exposable(tt.st, tt.was); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCatalogueKeepsTheFirstOfANameListedTwice(t *testing.T) {
	a := catServer("a")
	a.Caps.Tools = []Tool{{Name: "t", Description: "first"}, {Name: "u"}, {Name: "t", Description: "second"}}
	a.Caps.Prompts = []Prompt{{Name: "p", Description: "first"}, {Name: "p", Description: "second"}}
	b := catServer("b", "t") // another server's t is a tool of its own
	c := NewCatalogue([]CatalogueServer{b, a})
	var got []string
	for _, e := range c.Tools {
		got = append(got, e.Name+"="+e.Tool.Description)
	}
	if want := []string{"a__t=first", "a__u=", "b__t="}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("tools: got %v, want %v", got, want)
	}
	if len(c.Prompts) != 1 || c.Prompts[0].Prompt.Description != "first" {
		t.Errorf("prompts: got %+v, want only a__p with the first description", c.Prompts)
	}
	if tl, ok := c.Tool("a__t"); !ok || tl.Tool.Description != "first" {
		t.Errorf("routing a__t: got %+v, %v; want the first t", tl, ok)
	}
}
